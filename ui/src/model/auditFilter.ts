// The Audit page's filters: what the person picked (form values, local times) and the
// engine's AuditFilter they become; the same filters applied to search results, which the
// engine's search does not narrow; and the one-word outcome of a row.

import type { AuditFilter, AuditRow } from "../api/gatehouse";

export type AuditFilterValues = {
  /** `datetime-local` values (local time, no zone), or "". */
  since: string;
  until: string;
  server: string;
  tool: string;
  source: string;
  decision: string;
  outcome: string;
  /** A gateway client's name: the rows of its requests. */
  client: string;
};

export const EMPTY_AUDIT_FILTER: AuditFilterValues = {
  since: "",
  until: "",
  server: "",
  tool: "",
  source: "",
  decision: "",
  outcome: "",
  client: "",
};

/** A `datetime-local` value as RFC 3339 UTC, or null when empty or not a time. */
export function localTimeToUtc(value: string): string | null {
  if (value.trim() === "") return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

const orNull = (value: string): string | null => (value.trim() === "" ? null : value.trim());

/** The engine filter for these values, asking for at most `limit` rows. */
export function toAuditFilter(values: AuditFilterValues, limit: number): AuditFilter {
  return {
    since: localTimeToUtc(values.since),
    until: localTimeToUtc(values.until),
    server: orNull(values.server),
    tool: orNull(values.tool),
    source: orNull(values.source),
    decision: orNull(values.decision),
    outcome: orNull(values.outcome),
    client: orNull(values.client),
    limit,
    offset: null,
  };
}

/** Whether any filter is set. */
export function hasFilters(values: AuditFilterValues): boolean {
  return Object.values(values).some((v) => v.trim() !== "");
}

/** How a row ended: its error type, "ok" for a finished call without one, else "". */
export function rowOutcome(row: AuditRow): string {
  if (row.errorType !== null) return row.errorType;
  return row.kind === "call_finished" ? "ok" : "";
}

/** Whether `row` passes the filters, as the engine's listing would decide. */
export function matchesFilter(row: AuditRow, filter: AuditFilter): boolean {
  const at = Date.parse(row.at);
  if (filter.since !== null && at < Date.parse(filter.since)) return false;
  if (filter.until !== null && at >= Date.parse(filter.until)) return false;
  if (filter.server !== null && row.server !== filter.server) return false;
  if (filter.tool !== null && row.tool !== filter.tool) return false;
  if (filter.source !== null && row.source !== filter.source) return false;
  if (filter.decision !== null && row.decision !== filter.decision) return false;
  if (filter.client !== null && (row.source !== "gateway" || callerOf(row) !== filter.client)) return false;
  if (filter.outcome !== null) {
    const outcome = rowOutcome(row);
    if (filter.outcome === "error" ? row.errorType === null : outcome !== filter.outcome) return false;
  }
  return true;
}

/** The caller a row's detail names (a gateway client's name on its requests' rows), or null. */
function callerOf(row: AuditRow): string | null {
  const detail: unknown = row.detail;
  if (detail === null || typeof detail !== "object" || Array.isArray(detail)) return null;
  const caller = (detail as Record<string, unknown>).caller;
  return typeof caller === "string" ? caller : null;
}

/** A row's time as the person reads it: local date and time with milliseconds. */
export function formatAuditTime(at: string): string {
  const time = new Date(at);
  if (Number.isNaN(time.getTime())) return at;
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return (
    `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())} ` +
    `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${pad(time.getMilliseconds(), 3)}`
  );
}

/** A kind as words: "call_finished" → "call finished". */
export function formatKind(kind: string): string {
  return kind.replaceAll("_", " ");
}
