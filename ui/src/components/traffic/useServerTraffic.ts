// One server's JSON-RPC traffic, live: the messages the engine keeps (`server_traffic`), then
// those each batched ServerTrafficEvent brings (skipping those already read, by sequence
// number). Pausing freezes the shown list at the last message seen; messages that come
// meanwhile are counted and shown on resume. At most MAX_ENTRIES are held, the oldest going
// first, like the engine's own buffer.

import { useEffect, useState } from "react";
import { errorMessage } from "../../api/GatehouseError";
import { serverTraffic, subscribeServerTraffic, type TrafficEntry } from "../../api/gatehouse";
import { appendBounded, MAX_ENTRIES } from "./trafficModel";

export type ServerTraffic = {
  /** The messages to show, oldest first (up to the pause point while paused). */
  entries: TrafficEntry[];
  error: string | null;
  paused: boolean;
  /** Messages that arrived while paused, not yet shown. */
  waiting: number;
  /** Messages the engine dropped or that did not reach the view (a flood): the view has gaps. */
  dropped: number;
  pause: () => void;
  resume: () => void;
};

type Held = { serverId: string; entries: TrafficEntry[]; error: string | null; missed: number; dropped: number };

export function useServerTraffic(serverId: string): ServerTraffic {
  const [held, setHeld] = useState<Held>({ serverId, entries: [], error: null, missed: 0, dropped: 0 });
  // The seq of the last message shown when paused, or null when following.
  const [pausedAt, setPausedAt] = useState<number | null>(null);

  useEffect(() => {
    let cancelled = false;
    let loaded = false;
    // Messages announced before the first read answers, merged after it.
    let early: TrafficEntry[] = [];
    const unsubscribe = subscribeServerTraffic((event) => {
      if (cancelled || event.id !== serverId) return;
      if (!loaded) {
        early = appendBounded(early, event.entries);
        return;
      }
      setHeld((h) =>
        h.serverId === serverId
          ? { ...h, entries: appendBounded(h.entries, event.entries), missed: h.missed + event.missed, dropped: event.dropped }
          : h,
      );
    });
    serverTraffic(serverId, 0, MAX_ENTRIES).then(
      (page) => {
        if (cancelled) return;
        loaded = true;
        setHeld({ serverId, entries: appendBounded(page.entries, early), error: null, missed: 0, dropped: page.dropped });
      },
      (e: unknown) => {
        if (cancelled) return;
        loaded = true;
        setHeld({ serverId, entries: early, error: errorMessage(e), missed: 0, dropped: 0 });
      },
    );
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [serverId]);

  const current = held.serverId === serverId ? held : { entries: [], error: null, missed: 0, dropped: 0 };
  const shown = pausedAt === null ? current.entries : current.entries.filter((e) => e.seq <= pausedAt);
  const lastSeq = current.entries.at(-1)?.seq ?? 0;
  return {
    entries: shown,
    error: current.error,
    paused: pausedAt !== null,
    waiting: current.entries.length - shown.length,
    dropped: current.dropped + current.missed,
    pause: () => setPausedAt(lastSeq),
    resume: () => setPausedAt(null),
  };
}
