// Tests for status badge labels, detail explanations and what a server without tools offers.

import { describe, expect, it } from "vitest";
import { connected } from "../test/serverFixtures";
import { eraLabel, offersSentence, statusLabel, statusExplanation } from "./describeStatus";

describe("statusLabel", () => {
  it("labels each state", () => {
    expect(statusLabel({ state: "disabled" })).toBe("Disabled");
    expect(statusLabel({ state: "connecting" })).toBe("Connecting…");
    expect(statusLabel({ state: "failed", message: "boom" })).toBe("Failed");
    expect(statusLabel({ state: "degraded", reason: "no answer to ping within 10s", misses: 1 })).toBe(
      "Degraded · 1 missed check",
    );
    expect(statusLabel({ state: "degraded", reason: "no answer to ping within 10s", misses: 2 })).toBe(
      "Degraded · 2 missed checks",
    );
  });

  it("counts tools with correct pluralisation", () => {
    expect(statusLabel(connected(0))).toBe("Connected · 0 tools");
    expect(statusLabel(connected(1))).toBe("Connected · 1 tool");
    expect(statusLabel(connected(12))).toBe("Connected · 12 tools");
  });

  it("names what a server without tools offers instead of counting no tools", () => {
    expect(statusLabel(connected(0, "modern", ["prompts", "resources"]))).toBe("Connected · prompts, resources");
    expect(statusLabel(connected(0, "legacy", ["prompts", "completions", "logging"]))).toBe(
      "Connected · prompts, completions, logging",
    );
    expect(statusLabel(connected(0, "legacy", []))).toBe("Connected · no tools");
    expect(statusLabel(connected(0, "legacy", ["tools", "prompts"]))).toBe("Connected · 0 tools");
  });
});

describe("offersSentence", () => {
  it("lists the features in a sentence", () => {
    expect(offersSentence(["prompts"])).toBe("It offers prompts.");
    expect(offersSentence(["prompts", "resources"])).toBe("It offers prompts and resources.");
    expect(offersSentence(["prompts", "resources", "logging"])).toBe("It offers prompts, resources and logging.");
    expect(offersSentence([])).toBe("It offers nothing else either.");
  });
});

describe("statusExplanation", () => {
  it("includes the failure message", () => {
    expect(statusExplanation({ state: "failed", message: "spawn npx ENOENT" })).toBe(
      "Connection failed: spawn npx ENOENT",
    );
  });

  it("says why a degraded server is degraded and what follows", () => {
    expect(statusExplanation({ state: "degraded", reason: "no answer to ping within 10s", misses: 1 })).toBe(
      "The server stopped answering health checks (no answer to ping within 10s). Calls still go to it; Gatehouse starts it again if it keeps missing them.",
    );
  });

  it("says what to do when the server asks for authorization", () => {
    const status = { state: "authRequired", message: "HTTP 401 Unauthorized" } as const;
    expect(statusLabel(status)).toBe("Authorization required");
    expect(statusExplanation(status)).toContain("(HTTP 401 Unauthorized)");
    expect(statusExplanation(status)).toContain("secret header");
  });

  it("says when a lost HTTP server is connected to again", () => {
    const status = { state: "reconnecting", attempt: 2, inMs: 2000, message: "HTTP 503" } as const;
    expect(statusLabel(status)).toBe("Reconnecting in 2 s");
    expect(statusExplanation(status)).toBe("The server was lost (HTTP 503). Gatehouse connects again in 2 s (attempt 2).");
  });

  it("names the connected server and protocol", () => {
    expect(statusExplanation(connected(3))).toBe("Connected to everything 1.0.0 (MCP 2025-06-18, legacy handshake).");
  });

  it("names the era of a modern connection", () => {
    expect(statusExplanation(connected(2, "modern"))).toBe("Connected to everything 1.0.0 (MCP 2026-07-28, modern, stateless).");
    expect(eraLabel("something-new")).toBe("something-new");
  });
});
