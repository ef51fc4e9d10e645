// Loads a server's task log (whatever its connection state: finished tasks stay in the log),
// and reloads it whenever a live event says that server's tasks changed, or when asked to.

import { useCallback, useEffect, useState } from "react";
import * as api from "../api/gatehouse";
import type { TaskRecord } from "../api/gatehouse";
import { errorMessage } from "../api/GatehouseError";

export type TasksState = {
  /** Tasks of this server, newest first, from the latest successful load (kept visible while reloading). */
  tasks: TaskRecord[] | null;
  loading: boolean;
  error: string | null;
  reload: () => void;
};

type LoadResult = { serverId: string; key: string; tasks: TaskRecord[] | null; error: string | null };

export function useTasks(serverId: string): TasksState {
  const [epoch, setEpoch] = useState(0);
  const [result, setResult] = useState<LoadResult | null>(null);

  useEffect(
    () =>
      api.subscribeTasksChanged((event) => {
        if (event.id === serverId) setEpoch((n) => n + 1);
      }),
    [serverId],
  );

  const key = `${serverId}#${epoch}`;

  useEffect(() => {
    let cancelled = false;
    api.listTasks(serverId).then(
      (tasks) => {
        if (!cancelled) setResult({ serverId, key, tasks, error: null });
      },
      (e: unknown) => {
        if (!cancelled) setResult({ serverId, key, tasks: null, error: errorMessage(e) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [key, serverId]);

  const reload = useCallback(() => setEpoch((n) => n + 1), []);

  const sameServer = result?.serverId === serverId ? result : null;
  const current = sameServer?.key === key ? sameServer : null;
  return {
    tasks: sameServer?.tasks ?? null,
    loading: current === null,
    error: current?.error ?? null,
    reload,
  };
}
