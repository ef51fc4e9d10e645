// The Traffic tab's pure parts: the view's bound (as many messages as the engine keeps per
// server), merging new messages once each by sequence number, the filter by method and
// direction, and how a message's size and latency read.

import type { TrafficDirection, TrafficEntry } from "../../api/gatehouse";

/** Messages held in the view, as the engine keeps per server. */
export const MAX_ENTRIES = 2_000;

export type DirectionFilter = "all" | TrafficDirection;

/** `entries` followed by those of `more` not already in it, at most MAX_ENTRIES (oldest go). */
export function appendBounded(entries: TrafficEntry[], more: TrafficEntry[]): TrafficEntry[] {
  const last = entries.at(-1)?.seq ?? 0;
  const fresh = more.filter((e) => e.seq > last);
  if (fresh.length === 0) return entries;
  const all = entries.concat(fresh);
  return all.length > MAX_ENTRIES ? all.slice(all.length - MAX_ENTRIES) : all;
}

/** The entries whose method contains `method` (any case) and that went `direction`. */
export function filterEntries(entries: TrafficEntry[], method: string, direction: DirectionFilter): TrafficEntry[] {
  const needle = method.trim().toLowerCase();
  if (needle === "" && direction === "all") return entries;
  return entries.filter(
    (e) => (direction === "all" || e.direction === direction) && (needle === "" || (e.method ?? "").toLowerCase().includes(needle)),
  );
}

/** `1.2 KiB`, `312 B`, `3.4 MiB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** `12 ms`, `0.4 ms`, `2.31 s`, or empty when there is none. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return "";
  if (ms < 1) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** The message pretty-printed when it is whole JSON, else its text as kept. */
export function messageText(entry: TrafficEntry): string {
  if (entry.truncated) return entry.message;
  try {
    return JSON.stringify(JSON.parse(entry.message), null, 2);
  } catch {
    return entry.message;
  }
}
