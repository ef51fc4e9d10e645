// Loads one server's list (tools, tasks) while enabled, keeps the last good list visible while it
// reloads, and reloads it when asked or when the given live event says it changed. An answer
// that arrives after the server or the load was superseded is discarded.

import { useCallback, useEffect, useState } from "react";
import { errorMessage } from "../api/GatehouseError";

export type LiveList<T> = {
  /** This server's items from the latest successful load (kept visible while reloading). */
  items: T[] | null;
  loading: boolean;
  error: string | null;
  reload: () => void;
};

/** Subscribes to the live events that mean `serverId`'s list changed; returns the unsubscribe. */
export type ChangeSubscription = (serverId: string, onChange: () => void) => () => void;

type LoadResult<T> = { serverId: string; key: string; items: T[] | null; error: string | null };

/** `load` and `subscribe` must be stable (module-level) functions. */
export function useLiveList<T>(
  serverId: string,
  enabled: boolean,
  load: (serverId: string) => Promise<T[]>,
  subscribe: ChangeSubscription,
): LiveList<T> {
  const [epoch, setEpoch] = useState(0);
  const [result, setResult] = useState<LoadResult<T> | null>(null);

  useEffect(() => subscribe(serverId, () => setEpoch((n) => n + 1)), [serverId, subscribe]);

  const key = enabled ? `${serverId}#${epoch}` : null;

  useEffect(() => {
    if (key === null) return;
    let cancelled = false;
    load(serverId).then(
      (items) => {
        if (!cancelled) setResult({ serverId, key, items, error: null });
      },
      (e: unknown) => {
        if (!cancelled) setResult({ serverId, key, items: null, error: errorMessage(e) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [key, serverId, load]);

  const reload = useCallback(() => setEpoch((n) => n + 1), []);

  const sameServer = result?.serverId === serverId ? result : null;
  const current = sameServer?.key === key ? sameServer : null;
  return {
    items: sameServer?.items ?? null,
    loading: key !== null && current === null,
    error: current?.error ?? null,
    reload,
  };
}
