// The tool lists of the connected servers that offer tools (at most MAX_TOOL_LISTS of them), for
// the command palette and the Servers list's search. Each is the same ["tools", id] query the
// server detail loads (useTools), so a list loaded anywhere is reused everywhere.

import { useQueries } from "@tanstack/react-query";
import { useMemo } from "react";
import * as api from "../api/gatehouse";
import type { ServerView, ToolInfo } from "../api/gatehouse";

/** The most servers whose tools are asked for at once. */
export const MAX_TOOL_LISTS = 100;

export type ToolListOf = { server: ServerView; tools: ToolInfo[] };

/** The loaded tool lists of the live servers among `servers`, in their order. */
export function useToolLists(servers: readonly ServerView[]): ToolListOf[] {
  const withTools = useMemo(
    () =>
      servers
        .filter((s) => (s.status.state === "connected" && s.status.offers.includes("tools")) || s.status.state === "degraded")
        .slice(0, MAX_TOOL_LISTS),
    [servers],
  );
  const toolData = useQueries({
    queries: withTools.map((s) => ({
      queryKey: ["tools", s.config.id],
      queryFn: () => api.listTools(s.config.id),
    })),
    combine: dataOf,
  });
  return useMemo(
    () =>
      withTools.flatMap((server, i) => {
        const tools = toolData[i];
        return tools === undefined ? [] : [{ server, tools }];
      }),
    [withTools, toolData],
  );
}

/** Each query's data; stable (module-level), so the combined array changes only with a result. */
function dataOf(results: { data: ToolInfo[] | undefined }[]): (ToolInfo[] | undefined)[] {
  return results.map((r) => r.data);
}
