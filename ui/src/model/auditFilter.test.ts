// Tests for the audit filter model: form values to the engine's filter, and search results
// narrowed the way the engine narrows a listing.

import { describe, expect, it } from "vitest";
import { auditRow } from "../test/auditFixtures";
import { EMPTY_AUDIT_FILTER, hasFilters, matchesFilter, rowOutcome, toAuditFilter } from "./auditFilter";

describe("toAuditFilter", () => {
  it("leaves empty fields out and turns local times into UTC", () => {
    const since = "2026-11-23T10:30";
    const filter = toAuditFilter({ ...EMPTY_AUDIT_FILTER, since, server: " everything ", outcome: "error" }, 500);
    expect(filter).toEqual({
      since: new Date(since).toISOString(),
      until: null,
      server: "everything",
      tool: null,
      source: null,
      decision: null,
      outcome: "error",
      client: null,
      limit: 500,
      offset: null,
    });
    expect(hasFilters(EMPTY_AUDIT_FILTER)).toBe(false);
    expect(hasFilters({ ...EMPTY_AUDIT_FILTER, tool: "echo" })).toBe(true);
  });
});

describe("matchesFilter", () => {
  const none = toAuditFilter(EMPTY_AUDIT_FILTER, 100);
  it("narrows by each field and by outcome as the engine does", () => {
    const finished = auditRow(2, { kind: "call_finished", durationMs: 4 });
    const failed = auditRow(3, { kind: "call_finished", errorType: "tool_error" });
    const denied = auditRow(4, { kind: "decision", decision: "deny", tool: "add" });
    expect(rowOutcome(finished)).toBe("ok");
    expect(rowOutcome(denied)).toBe("");
    expect(matchesFilter(denied, { ...none, decision: "deny" })).toBe(true);
    expect(matchesFilter(finished, { ...none, decision: "deny" })).toBe(false);
    expect(matchesFilter(finished, { ...none, outcome: "ok" })).toBe(true);
    expect(matchesFilter(failed, { ...none, outcome: "ok" })).toBe(false);
    const agents = auditRow(5, { kind: "decision", decision: "allow", source: "gateway", detail: { caller: "cursor" } });
    const cli = auditRow(6, { kind: "decision", decision: "allow", source: "user", detail: { caller: "cursor" } });
    expect(toAuditFilter({ ...EMPTY_AUDIT_FILTER, client: " cursor " }, 10).client).toBe("cursor");
    expect(matchesFilter(agents, { ...none, client: "cursor" })).toBe(true);
    expect(matchesFilter(agents, { ...none, client: "claude-code" })).toBe(false);
    expect(matchesFilter(cli, { ...none, client: "cursor" })).toBe(false);
    expect(matchesFilter(failed, { ...none, outcome: "error" })).toBe(true);
    expect(matchesFilter(failed, { ...none, outcome: "tool_error" })).toBe(true);
    expect(matchesFilter(denied, { ...none, tool: "echo" })).toBe(false);
    expect(matchesFilter(denied, { ...none, until: "2026-11-23T09:00:00.000Z" })).toBe(false);
    expect(matchesFilter(denied, { ...none, since: "2026-11-23T09:00:00.000Z" })).toBe(true);
  });
});
