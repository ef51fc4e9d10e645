// Tests for applying live status events and mutation results to the server list.

import { describe, expect, it } from "vitest";
import { connected, makeServer } from "../test/serverFixtures";
import { applyStatusEvent, upsertServerView } from "./applyStatusEvent";

describe("applyStatusEvent", () => {
  it("replaces only the matching server's status", () => {
    const a = makeServer("a", { state: "connecting" });
    const b = makeServer("b", { state: "disabled" });
    const next = applyStatusEvent([a, b], { id: a.config.id, status: connected(2) });
    expect(next[0]?.status).toEqual(connected(2));
    expect(next[1]).toBe(b);
  });

  it("returns the same list for an unknown id", () => {
    const list = [makeServer("a", { state: "connecting" })];
    expect(applyStatusEvent(list, { id: "nope", status: { state: "disabled" } })).toBe(list);
  });
});

describe("upsertServerView", () => {
  it("replaces an existing server and appends a new one", () => {
    const a = makeServer("a", { state: "connecting" });
    const updated = { ...a, config: { ...a.config, name: "renamed" } };
    expect(upsertServerView([a], updated).map((s) => s.config.name)).toEqual(["renamed"]);
    const b = makeServer("b", { state: "disabled" });
    expect(upsertServerView([a], b).map((s) => s.config.name)).toEqual(["a", "b"]);
  });
});
