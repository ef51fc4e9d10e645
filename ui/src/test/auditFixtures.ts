// Audit rows and policy rules for tests, in the shapes the engine sends.

import type { AuditRow, ChainReport, RuleView, ToolDefinitionRecord } from "../api/gatehouse";

/** A `tools/call` audit row of server-everything's echo, with `fields` changed. */
export function auditRow(seq: number, fields: Partial<AuditRow> = {}): AuditRow {
  return {
    seq,
    at: "2026-11-23T09:00:00.000Z",
    kind: "call_started",
    server: "everything",
    source: "user",
    method: "tools/call",
    tool: "echo",
    requestId: String(seq),
    correlation: "c-1",
    decision: null,
    errorType: null,
    transport: "pipe",
    durationMs: null,
    detail: { arguments: { message: "hi" } },
    hash: `h${seq}`.padEnd(64, "0"),
    prevHash: "0".repeat(64),
    keyId: "0e369210f73adb9b",
    ...fields,
  };
}

/** What "Verify chain" gets for an intact log of `rows` keyed rows, with `fields` changed. */
export function chainReport(rows: number, fields: Partial<ChainReport> = {}): ChainReport {
  return {
    result: { state: "intact", rows },
    parts: rows > 0 ? [{ from: 1, to: rows, kind: "keyed", keyId: "0e369210f73adb9b" }] : [],
    moreParts: false,
    key: { state: "keyring", keyId: "0e369210f73adb9b" },
    checkpoint: { state: "holds", seq: rows, newer: 0 },
    headCopy: null,
    ...fields,
  };
}

/** A rule as the engine lists it, with `fields` changed. */
export function ruleView(id: string, fields: Partial<RuleView> = {}): RuleView {
  return {
    id,
    server: "everything",
    serverId: "s-everything",
    tool: null,
    argument: null,
    decision: "ask",
    definitionHash: null,
    source: null,
    client: null,
    stale: false,
    currentDefinitionHash: null,
    ...fields,
  };
}

/** A kept tool definition. */
export function definition(hash: string, fields: Partial<ToolDefinitionRecord> = {}): ToolDefinitionRecord {
  return {
    tool: "echo",
    hash: hash.padEnd(64, "0"),
    definition: { name: "echo", description: "Echoes back the input", inputSchema: { type: "object" } },
    firstSeen: "2026-11-23T09:00:00.000Z",
    lastSeen: "2026-11-23T09:00:00.000Z",
    ...fields,
  };
}
