// Server list state: loads listServers, applies live status events, and wraps every mutation
// so the list is updated from its result and then re-fetched from the engine.

import { useCallback, useEffect, useRef, useState } from "react";
import * as api from "../api/gatehouse";
import type { ServerInput, ServerStatusEvent, ServerView } from "../api/gatehouse";
import { errorMessage } from "../api/GatehouseError";
import { applyStatusEvent, upsertServerView } from "../model/applyStatusEvent";

export type ServersController = {
  servers: ServerView[];
  /** False until the first listServers call has finished (successfully or not). */
  loaded: boolean;
  /** Message of the last failed listServers call, cleared by the next successful one. */
  loadError: string | null;
  refresh: () => Promise<void>;
  /** All mutations throw GatehouseError on failure; callers show the message. */
  save: (id: string | null, input: ServerInput) => Promise<ServerView>;
  remove: (id: string) => Promise<void>;
  setEnabled: (id: string, enabled: boolean) => Promise<ServerView>;
  reconnect: (id: string) => Promise<ServerView>;
};

export function useServers(): ServersController {
  const [servers, setServers] = useState<ServerView[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const latestRequest = useRef(0);
  // Events that arrive while a listServers call is in flight are re-applied on its
  // (possibly older) snapshot so a live status is never overwritten by a stale one.
  const eventsInFlight = useRef<ServerStatusEvent[] | null>(null);
  const knownIds = useRef<ReadonlySet<string>>(new Set());

  useEffect(() => {
    knownIds.current = new Set(servers.map((s) => s.config.id));
  }, [servers]);

  const refresh = useCallback(async () => {
    const request = ++latestRequest.current;
    eventsInFlight.current = [];
    try {
      const list = await api.listServers();
      if (request !== latestRequest.current) return;
      const pending = eventsInFlight.current ?? [];
      setServers(pending.reduce(applyStatusEvent, list));
      setLoadError(null);
    } catch (e) {
      if (request !== latestRequest.current) return;
      setLoadError(errorMessage(e));
    } finally {
      if (request === latestRequest.current) {
        eventsInFlight.current = null;
        setLoaded(true);
      }
    }
  }, []);

  useEffect(() => {
    const unsubscribe = api.subscribeServerStatus((event) => {
      eventsInFlight.current?.push(event);
      setServers((prev) => applyStatusEvent(prev, event));
      // A status for a server we have never seen: our list is out of date.
      if (!knownIds.current.has(event.id) && eventsInFlight.current === null) void refresh();
    });
    void refresh();
    return unsubscribe;
  }, [refresh]);

  const mutate = useCallback(
    async <T>(op: () => Promise<T>, apply: (result: T) => void): Promise<T> => {
      try {
        const result = await op();
        apply(result);
        return result;
      } finally {
        void refresh();
      }
    },
    [refresh],
  );

  const upsert = useCallback((view: ServerView) => setServers((prev) => upsertServerView(prev, view)), []);

  const save = useCallback(
    (id: string | null, input: ServerInput) =>
      mutate(() => (id === null ? api.addServer(input) : api.updateServer(id, input)), upsert),
    [mutate, upsert],
  );
  const remove = useCallback(
    async (id: string) => {
      await mutate(
        () => api.removeServer(id),
        () => setServers((prev) => prev.filter((s) => s.config.id !== id)),
      );
    },
    [mutate],
  );
  const setEnabled = useCallback(
    (id: string, enabled: boolean) => mutate(() => api.setServerEnabled(id, enabled), upsert),
    [mutate, upsert],
  );
  const reconnect = useCallback((id: string) => mutate(() => api.reconnectServer(id), upsert), [mutate, upsert]);

  return { servers, loaded, loadError, refresh, save, remove, setEnabled, reconnect };
}
