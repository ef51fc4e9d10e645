// Loads a server's tool list while it is connected, and reloads it whenever a live
// status event reports that server (re)connected, or when asked to. The list is the
// `["tools", serverId]` query of useLiveList.

import * as api from "../api/gatehouse";
import type { ToolInfo } from "../api/gatehouse";
import { type ChangeSubscription, useLiveList } from "./useLiveList";

export type ToolsState = {
  /** Tools of this server from the latest successful load (kept visible while reloading). */
  tools: ToolInfo[] | null;
  loading: boolean;
  error: string | null;
  reload: () => void;
};

const onConnected: ChangeSubscription = (serverId, onChange) =>
  api.subscribeServerStatus((event) => {
    if (event.id === serverId && event.status.state === "connected") onChange();
  });

export function useTools(serverId: string, connected: boolean): ToolsState {
  const { items, ...rest } = useLiveList("tools", serverId, connected, api.listTools, onConnected);
  return { tools: items, ...rest };
}
