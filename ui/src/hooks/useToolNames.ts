// The tool names of every connected server, for the Servers list's search. Each list is the same
// `["tools", serverId]` query the server's detail loads (useTools), so the two share one cache
// and a server's tools are asked once; only connected servers are asked.

import { useQueries } from "@tanstack/react-query";
import * as api from "../api/gatehouse";
import type { ServerView } from "../api/gatehouse";

const EMPTY: readonly string[] = [];

/** Tool names by server id; a server not connected (or not loaded yet) has none. */
export function useToolNames(servers: readonly ServerView[]): (serverId: string) => readonly string[] {
  const live = servers.filter((s) => s.status.state === "connected" || s.status.state === "degraded");
  const results = useQueries({
    queries: live.map((s) => ({
      queryKey: ["tools", s.config.id],
      queryFn: () => api.listTools(s.config.id),
    })),
  });
  const names = new Map<string, readonly string[]>();
  live.forEach((s, i) => {
    const tools = results[i]?.data;
    if (tools !== undefined) names.set(s.config.id, tools.map((t) => t.name));
  });
  return (serverId) => names.get(serverId) ?? EMPTY;
}
