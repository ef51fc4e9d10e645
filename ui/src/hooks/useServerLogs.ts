// One server's stderr, live: the last lines from the engine (`server_logs`), then the lines each
// batched ServerLogEvent brings (skipping those already read, by sequence number). Pausing
// freezes the shown list at the last line seen; lines that come meanwhile are counted and shown
// on resume. At most MAX_LINES are held, the oldest going first, like the engine's own ring.

import { useEffect, useState } from "react";
import { errorMessage } from "../api/GatehouseError";
import { serverLogs, subscribeServerLogs, type LogLine } from "../api/gatehouse";

/** Lines held in the view, as the engine keeps per server. */
export const MAX_LINES = 10_000;

export type ServerLogs = {
  /** The lines to show, oldest first (up to the pause point while paused). */
  lines: LogLine[];
  error: string | null;
  paused: boolean;
  /** Lines that arrived while paused, not yet shown. */
  waiting: number;
  /** Lines dropped on the way to the view (a flood): the view has a gap. */
  missed: number;
  pause: () => void;
  resume: () => void;
};

/** `lines` followed by those of `more` not already in it, at most MAX_LINES. */
export function appendBounded(lines: LogLine[], more: LogLine[]): LogLine[] {
  const last = lines.at(-1)?.seq ?? 0;
  const fresh = more.filter((l) => l.seq > last);
  if (fresh.length === 0) return lines;
  const all = lines.concat(fresh);
  return all.length > MAX_LINES ? all.slice(all.length - MAX_LINES) : all;
}

type Held = { serverId: string; lines: LogLine[]; error: string | null; missed: number };

export function useServerLogs(serverId: string): ServerLogs {
  const [held, setHeld] = useState<Held>({ serverId, lines: [], error: null, missed: 0 });
  // The seq of the last line shown when paused, or null when following.
  const [pausedAt, setPausedAt] = useState<number | null>(null);

  useEffect(() => {
    let cancelled = false;
    let loaded = false;
    // Lines announced before the first read answers, merged after it.
    let early: LogLine[] = [];
    const unsubscribe = subscribeServerLogs((event) => {
      if (cancelled || event.id !== serverId) return;
      if (!loaded) {
        early = early.concat(event.lines);
        return;
      }
      setHeld((h) =>
        h.serverId === serverId ? { ...h, lines: appendBounded(h.lines, event.lines), missed: h.missed + event.missed } : h,
      );
    });
    serverLogs(serverId, MAX_LINES).then(
      (lines) => {
        if (cancelled) return;
        loaded = true;
        setHeld({ serverId, lines: appendBounded(lines, early), error: null, missed: 0 });
      },
      (e: unknown) => {
        if (cancelled) return;
        loaded = true;
        setHeld({ serverId, lines: early, error: errorMessage(e), missed: 0 });
      },
    );
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [serverId]);

  const current = held.serverId === serverId ? held : { lines: [], error: null, missed: 0 };
  const shown = pausedAt === null ? current.lines : current.lines.filter((l) => l.seq <= pausedAt);
  const lastSeq = current.lines.at(-1)?.seq ?? 0;
  return {
    lines: shown,
    error: current.error,
    paused: pausedAt !== null,
    waiting: current.lines.length - shown.length,
    missed: current.missed,
    pause: () => setPausedAt(lastSeq),
    resume: () => setPausedAt(null),
  };
}
