// The palette's entries from what the window already holds: the pages, the server list (the
// ["servers"] query of useServers) and the tools of the connected servers (useToolLists: the
// same ["tools", id] queries the server detail loads).

import { useMemo } from "react";
import { useServers } from "../../hooks/useServers";
import { useToolLists } from "../../hooks/useToolLists";
import { ROUTES } from "../../routes";
import { ACTIONS, type PaletteEntry, pageEntries, serverEntries, toolEntries } from "./paletteEntries";

export function usePaletteEntries(): PaletteEntry[] {
  const { servers } = useServers();
  const lists = useToolLists(servers);
  return useMemo(
    () => [...pageEntries(ROUTES), ...ACTIONS, ...serverEntries(servers), ...toolEntries(lists)],
    [servers, lists],
  );
}
