// Tests for the window's call history: newest first, per-server and byte bounds, large results.

import { beforeEach, describe, expect, it } from "vitest";
import type { CallResultView } from "../api/gatehouse";
import { callsOf, clearCalls, MAX_CALLS_PER_SERVER, MAX_HISTORY_BYTES, recordCall } from "./callHistory";

const text = (t: string): CallResultView => ({
  content: [{ type: "text", text: t }],
  structuredContent: null,
  isError: false,
  schemaProblem: null,
  cancelled: false,
});
const record = (serverId: string, n: number, result = text(`r${n}`)) =>
  recordCall({ id: `c${n}`, serverId, tool: "echo", args: { n }, at: n, outcome: { kind: "result", result } });

beforeEach(() => clearCalls());

describe("call history", () => {
  it("keeps a server's calls newest first, apart from other servers'", () => {
    record("a", 1);
    record("b", 2);
    record("a", 3);
    expect(callsOf("a").map((e) => e.id)).toEqual(["c3", "c1"]);
    expect(callsOf("b").map((e) => e.args)).toEqual([{ n: 2 }]);
  });

  it("keeps at most the bound per server, dropping the oldest", () => {
    for (let n = 1; n <= MAX_CALLS_PER_SERVER + 5; n++) record("a", n);
    record("b", 1000);
    const kept = callsOf("a");
    expect(kept).toHaveLength(MAX_CALLS_PER_SERVER);
    expect(kept[0]?.id).toBe(`c${MAX_CALLS_PER_SERVER + 5}`);
    expect(kept.at(-1)?.id).toBe("c6");
    expect(callsOf("b")).toHaveLength(1);
  });

  it("keeps a result too large to hold as its size alone", () => {
    record("a", 1, text("x".repeat(300 * 1024)));
    const [entry] = callsOf("a");
    expect(entry?.outcome.kind).toBe("too-large");
    expect(entry?.bytes).toBeLessThan(1024);
  });

  it("stays within the byte budget across servers", () => {
    // 60 servers × 200 KiB results: more than the budget; the oldest go first.
    for (let n = 1; n <= 60; n++) record(`s${n}`, n, text("y".repeat(200 * 1024)));
    const all = Array.from({ length: 60 }, (_, i) => callsOf(`s${i + 1}`)).flat();
    const total = all.reduce((sum, e) => sum + e.bytes, 0);
    expect(total).toBeLessThanOrEqual(MAX_HISTORY_BYTES);
    expect(all.length).toBeGreaterThan(30);
    expect(callsOf("s60")).toHaveLength(1);
    expect(callsOf("s1")).toHaveLength(0);
  });

  it("records failures with their message", () => {
    recordCall({ id: "f", serverId: "a", tool: "echo", args: {}, at: 1, outcome: { kind: "failed", error: "denied by policy" } });
    expect(callsOf("a")[0]?.outcome).toEqual({ kind: "failed", error: "denied by policy" });
  });
});
