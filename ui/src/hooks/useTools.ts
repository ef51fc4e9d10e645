// Loads a server's tool list while it is connected, and reloads it whenever a live
// status event reports that server (re)connected, or when asked to.

import { useCallback, useEffect, useState } from "react";
import * as api from "../api/gatehouse";
import type { ToolInfo } from "../api/gatehouse";
import { errorMessage } from "../api/GatehouseError";

export type ToolsState = {
  /** Tools of this server from the latest successful load (kept visible while reloading). */
  tools: ToolInfo[] | null;
  loading: boolean;
  error: string | null;
  reload: () => void;
};

type LoadResult = { serverId: string; key: string; tools: ToolInfo[] | null; error: string | null };

export function useTools(serverId: string, connected: boolean): ToolsState {
  const [epoch, setEpoch] = useState(0);
  const [result, setResult] = useState<LoadResult | null>(null);

  useEffect(
    () =>
      api.subscribeServerStatus((event) => {
        if (event.id === serverId && event.status.state === "connected") setEpoch((n) => n + 1);
      }),
    [serverId],
  );

  const key = connected ? `${serverId}#${epoch}` : null;

  useEffect(() => {
    if (key === null) return;
    let cancelled = false;
    api.listTools(serverId).then(
      (tools) => {
        if (!cancelled) setResult({ serverId, key, tools, error: null });
      },
      (e: unknown) => {
        if (!cancelled) setResult({ serverId, key, tools: null, error: errorMessage(e) });
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
    tools: sameServer?.tools ?? null,
    loading: key !== null && current === null,
    error: current?.error ?? null,
    reload,
  };
}
