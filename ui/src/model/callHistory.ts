// The window's memory of the tool calls it made, for a server's History tab: newest first,
// bounded to 50 calls per server and 8 MiB in all (a result larger than 256 KiB is kept as its
// size alone). It lives as long as the window does; nothing is written anywhere.

import { useSyncExternalStore } from "react";
import type { CallResultView } from "../api/gatehouse";

export const MAX_CALLS_PER_SERVER = 50;
export const MAX_HISTORY_BYTES = 8 * 1024 * 1024;
export const MAX_KEPT_RESULT_BYTES = 256 * 1024;

export type CallOutcome =
  | { kind: "result"; result: CallResultView }
  | { kind: "too-large"; bytes: number; isError: boolean }
  | { kind: "failed"; error: string };

export type CallEntry = {
  id: string;
  serverId: string;
  tool: string;
  args: Record<string, unknown>;
  /** When the call ended, in ms since the epoch. */
  at: number;
  outcome: CallOutcome;
  /** What the entry costs the window, about: its JSON's length. */
  bytes: number;
};

let entries: readonly CallEntry[] = [];
const listeners = new Set<() => void>();

function sizeOf(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Records a finished call (a result or a failure), dropping the oldest over the bounds. */
export function recordCall(call: Omit<CallEntry, "bytes" | "outcome"> & { outcome: Exclude<CallOutcome, { kind: "too-large" }> }): void {
  let outcome: CallOutcome = call.outcome;
  if (outcome.kind === "result") {
    const bytes = sizeOf(outcome.result);
    if (bytes > MAX_KEPT_RESULT_BYTES) outcome = { kind: "too-large", bytes, isError: outcome.result.isError };
  }
  const entry: CallEntry = { ...call, outcome, bytes: 0 };
  entry.bytes = sizeOf(entry);
  const next = [entry];
  let total = entry.bytes;
  let ofServer = 1;
  for (const kept of entries) {
    const same = kept.serverId === entry.serverId;
    if ((same && ofServer >= MAX_CALLS_PER_SERVER) || total + kept.bytes > MAX_HISTORY_BYTES) continue;
    next.push(kept);
    total += kept.bytes;
    if (same) ofServer += 1;
  }
  entries = next;
  listeners.forEach((notify) => notify());
}

/** A server's calls, newest first. */
export function callsOf(serverId: string): CallEntry[] {
  return entries.filter((e) => e.serverId === serverId);
}

/** Forgets every call (tests, and the History tab's Clear for one server). */
export function clearCalls(serverId?: string): void {
  entries = serverId === undefined ? [] : entries.filter((e) => e.serverId !== serverId);
  listeners.forEach((notify) => notify());
}

function subscribe(notify: () => void): () => void {
  listeners.add(notify);
  return () => listeners.delete(notify);
}

/** The calls of `serverId`, newest first, re-rendering when one is recorded. */
export function useCallHistory(serverId: string): CallEntry[] {
  const all = useSyncExternalStore(subscribe, () => entries);
  return all.filter((e) => e.serverId === serverId);
}
