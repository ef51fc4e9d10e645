// Loads one server's list (tools, tasks) while enabled, through TanStack Query (key
// `[name, serverId]`: `["tools", id]` and `["tasks", id]`), keeps the last good list visible while
// it reloads, and reloads it when asked or when the given live event says it changed. A reload
// cancels a load still in flight and starts anew, never joining it (its answer may predate the
// change): an answer that arrives after the server or the load was superseded is discarded.

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
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

/** `load` and `subscribe` must be stable (module-level) functions; `name` names the list. */
export function useLiveList<T>(
  name: string,
  serverId: string,
  enabled: boolean,
  load: (serverId: string) => Promise<T[]>,
  subscribe: ChangeSubscription,
): LiveList<T> {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: [name, serverId],
    queryFn: () => load(serverId),
    enabled,
  });

  // A reload starts a new load; the result of one still running is discarded. (A refetch alone
  // would join a first load still in flight, whose answer may predate the change.)
  const reload = useCallback(() => {
    const queryKey = [name, serverId];
    void client.cancelQueries({ queryKey }).then(() => client.refetchQueries({ queryKey, type: "active" }));
  }, [client, name, serverId]);
  useEffect(() => subscribe(serverId, reload), [serverId, subscribe, reload]);

  return {
    items: query.data ?? null,
    loading: enabled && query.isFetching,
    error: query.error === null ? null : errorMessage(query.error),
    reload,
  };
}
