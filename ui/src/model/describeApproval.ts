// Words for a waiting request: a one-line summary, the dialog's title, and the hints a tool's
// annotations claim.

import type { PendingApproval, Question } from "../api/gatehouse";

export function approvalTitle(question: Question): string {
  switch (question.kind) {
    case "toolCall":
      return "Allow this tool call?";
    case "sampling":
      return "A server asks for a model's reply";
    case "elicitation":
      return "A server asks for your input";
    case "openUrl":
      return "A server asks you to open a page";
    case "request":
      return "Allow this request?";
  }
}

export function approvalSummary(pending: PendingApproval): string {
  const q = pending.question;
  switch (q.kind) {
    case "toolCall":
      // An agent through the gateway is the one who wants the call, not the server.
      if (pending.source === "gateway" && pending.caller !== null) {
        return `${pending.caller} wants to call ${pending.server} · ${q.tool}`;
      }
      return `${pending.server} wants to call ${q.tool}`;
    case "sampling":
      return `${pending.server} asks for a model's reply`;
    case "elicitation":
      return `${pending.server} asks: ${q.message}`;
    case "openUrl":
      return `${pending.server} asks you to open ${q.domain || q.url}`;
    case "request":
      return `${pending.server} asks to run ${q.method}`;
  }
}

/** The face or client a request came through, as the dialog names it beside its source: the
 * CLI attached to the engine, a client of the gateway. An app view's own token is not shown. */
export function askedThrough(pending: PendingApproval): string | null {
  const caller = pending.caller;
  if (caller === null || caller.startsWith("view ")) return null;
  return caller === "cli" ? "the gatehouse CLI" : caller;
}

const HINTS: readonly (readonly [string, string])[] = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open world"],
];

/** The annotation hints a tool claims (true flags), as short labels. */
export function annotationHints(annotations: unknown): string[] {
  if (typeof annotations !== "object" || annotations === null) return [];
  const record = annotations as Record<string, unknown>;
  return HINTS.filter(([key]) => record[key] === true).map(([, label]) => label);
}

/** "in 4 min", "in 35 s", or "now" for a time already past. */
export function timeLeft(expiresAtMs: number | null, nowMs: number): string {
  if (expiresAtMs === null) return "";
  const seconds = Math.round((expiresAtMs - nowMs) / 1000);
  if (seconds <= 0) return "now";
  if (seconds < 90) return `in ${seconds} s`;
  return `in ${Math.round(seconds / 60)} min`;
}
