// A server's icon for the window's theme, asked of the engine once the server is connected (the
// engine checks and caches it: hooks get a data: URI or null). A server that disconnects keeps
// the icon it had; a new name or version asks again.

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { serverIcon, type ServerStatus } from "../api/gatehouse";
import { useDocumentTheme } from "./useDocumentTheme";

export function useServerIcon(id: string, status: ServerStatus): string | null {
  const theme = useDocumentTheme();
  const version = status.state === "connected" ? `${status.serverName}@${status.serverVersion}` : null;
  const query = useQuery({
    queryKey: ["serverIcon", id, theme, version],
    queryFn: () => serverIcon(id, theme),
    enabled: version !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
  return query.data ?? null;
}
