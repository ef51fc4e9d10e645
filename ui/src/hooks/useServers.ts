// Server list state on TanStack Query: the list is the ["servers"] query (listServers), live
// status events update it in place, and every mutation (a TanStack useMutation) updates it from
// its result and then has it re-fetched from the engine. A status event that arrives while the
// list is being fetched is applied again to the answer, so no change is lost to the race.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import * as api from "../api/gatehouse";
import type { ServerInput, ServerStatusEvent, ServerView } from "../api/gatehouse";
import { errorMessage } from "../api/GatehouseError";
import { applyStatusEvent, upsertServerView } from "../model/applyStatusEvent";

/** The query key of the server list. */
export const SERVERS_KEY = ["servers"] as const;

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
  stop: (id: string) => Promise<ServerView>;
  start: (id: string) => Promise<ServerView>;
};

export function useServers(): ServersController {
  const client = useQueryClient();
  // Events that arrive while a listServers call is in flight are re-applied on its (possibly
  // older) snapshot, so a live status is never overwritten by a stale one. One buffer per call
  // in flight: a refetch may start before the call it replaces has answered.
  const inFlight = useRef(new Set<ServerStatusEvent[]>());

  const query = useQuery({
    queryKey: SERVERS_KEY,
    queryFn: async () => {
      const events: ServerStatusEvent[] = [];
      inFlight.current.add(events);
      try {
        const list = await api.listServers();
        return events.reduce(applyStatusEvent, list);
      } finally {
        inFlight.current.delete(events);
      }
    },
  });
  const servers = useMemo(() => query.data ?? [], [query.data]);
  const knownIds = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    knownIds.current = new Set(servers.map((s) => s.config.id));
  }, [servers]);

  const refresh = useCallback(async () => {
    await client.refetchQueries({ queryKey: SERVERS_KEY, exact: true });
  }, [client]);

  useEffect(
    () =>
      api.subscribeServerStatus((event) => {
        for (const events of inFlight.current) events.push(event);
        client.setQueryData<ServerView[]>(SERVERS_KEY, (prev) => (prev === undefined ? prev : applyStatusEvent(prev, event)));
        // A status for a server we have never seen: our list is out of date.
        if (!knownIds.current.has(event.id) && inFlight.current.size === 0) void refresh();
      }),
    [client, refresh],
  );

  // Every mutation updates the list from its result, then has it re-fetched from the engine
  // (on failure too: the engine may have done part of it).
  const onSettled = () => {
    void refresh();
  };
  const upsert = (view: ServerView) => {
    client.setQueryData<ServerView[]>(SERVERS_KEY, (prev) => upsertServerView(prev ?? [], view));
  };
  const saving = useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ServerInput }) =>
      id === null ? api.addServer(input) : api.updateServer(id, input),
    onSuccess: upsert,
    onSettled,
  });
  const removing = useMutation({
    mutationFn: (id: string) => api.removeServer(id),
    onSuccess: (_done: null, id: string) => {
      client.setQueryData<ServerView[]>(SERVERS_KEY, (prev) => (prev ?? []).filter((s) => s.config.id !== id));
    },
    onSettled,
  });
  const enabling = useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => api.setServerEnabled(id, enabled),
    onSuccess: upsert,
    onSettled,
  });
  const reconnecting = useMutation({ mutationFn: (id: string) => api.reconnectServer(id), onSuccess: upsert, onSettled });
  const stopping = useMutation({ mutationFn: (id: string) => api.stopServer(id), onSuccess: upsert, onSettled });
  const starting = useMutation({ mutationFn: (id: string) => api.startServer(id), onSuccess: upsert, onSettled });

  const saveAsync = saving.mutateAsync;
  const removeAsync = removing.mutateAsync;
  const enableAsync = enabling.mutateAsync;
  const save = useCallback((id: string | null, input: ServerInput) => saveAsync({ id, input }), [saveAsync]);
  const remove = useCallback(
    async (id: string) => {
      await removeAsync(id);
    },
    [removeAsync],
  );
  const setEnabled = useCallback((id: string, enabled: boolean) => enableAsync({ id, enabled }), [enableAsync]);

  return {
    servers,
    loaded: !query.isPending,
    loadError: query.error === null ? null : errorMessage(query.error),
    refresh,
    save,
    remove,
    setEnabled,
    reconnect: reconnecting.mutateAsync,
    stop: stopping.mutateAsync,
    start: starting.mutateAsync,
  };
}
