// The tool names of the connected servers, for the Servers list's search, from the tool lists
// the window holds (useToolLists: the same queries the detail and the palette use).

import { useMemo } from "react";
import type { ServerView } from "../api/gatehouse";
import { useToolLists } from "./useToolLists";

const EMPTY: readonly string[] = [];

/** Tool names by server id; a server not connected (or not loaded yet) has none. */
export function useToolNames(servers: readonly ServerView[]): (serverId: string) => readonly string[] {
  const lists = useToolLists(servers);
  return useMemo(() => {
    const names = new Map(lists.map(({ server, tools }) => [server.config.id, tools.map((t) => t.name)]));
    return (serverId: string) => names.get(serverId) ?? EMPTY;
  }, [lists]);
}
