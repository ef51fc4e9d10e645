// The palette's entries from what the window already holds: the pages, the server list (the
// ["servers"] query of useServers) and, for each connected server that offers tools, its tool
// list (the same ["tools", id] query the server detail loads, so a list loaded there is reused
// and one loaded here is there when the detail opens).

import { useQueries } from "@tanstack/react-query";
import { useMemo } from "react";
import * as api from "../../api/gatehouse";
import type { ToolInfo } from "../../api/gatehouse";
import { useServers } from "../../hooks/useServers";
import { ROUTES } from "../../routes";
import { ACTIONS, type PaletteEntry, pageEntries, serverEntries, toolEntries } from "./paletteEntries";

/** The most servers whose tools the palette asks for at once. */
const MAX_TOOL_LISTS = 100;

export function usePaletteEntries(): PaletteEntry[] {
  const { servers } = useServers();
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
  return useMemo(() => {
    const lists = withTools.flatMap((server, i) => {
      const tools = toolData[i];
      return tools === undefined ? [] : [{ server, tools }];
    });
    return [...pageEntries(ROUTES), ...ACTIONS, ...serverEntries(servers), ...toolEntries(lists)];
  }, [servers, withTools, toolData]);
}

/** Each query's data; stable (module-level), so the combined array changes only with a result. */
function dataOf(results: { data: ToolInfo[] | undefined }[]): (ToolInfo[] | undefined)[] {
  return results.map((r) => r.data);
}
