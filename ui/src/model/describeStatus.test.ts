// Tests for status badge labels and detail explanations.

import { describe, expect, it } from "vitest";
import { connected } from "../test/serverFixtures";
import { eraLabel, statusExplanation, statusLabel } from "./describeStatus";

describe("statusLabel", () => {
  it("labels each state", () => {
    expect(statusLabel({ state: "disabled" })).toBe("Disabled");
    expect(statusLabel({ state: "connecting" })).toBe("Connecting…");
    expect(statusLabel({ state: "failed", message: "boom" })).toBe("Failed");
  });

  it("counts tools with correct pluralisation", () => {
    expect(statusLabel(connected(0))).toBe("Connected · 0 tools");
    expect(statusLabel(connected(1))).toBe("Connected · 1 tool");
    expect(statusLabel(connected(12))).toBe("Connected · 12 tools");
  });
});

describe("statusExplanation", () => {
  it("includes the failure message", () => {
    expect(statusExplanation({ state: "failed", message: "spawn npx ENOENT" })).toBe(
      "Connection failed: spawn npx ENOENT",
    );
  });

  it("names the connected server and protocol", () => {
    expect(statusExplanation(connected(3))).toBe("Connected to everything 1.0.0 (MCP 2025-06-18, legacy handshake).");
  });

  it("names the era of a modern connection", () => {
    expect(statusExplanation(connected(2, "modern"))).toBe("Connected to everything 1.0.0 (MCP 2026-07-28, modern, stateless).");
    expect(eraLabel("something-new")).toBe("something-new");
  });
});
