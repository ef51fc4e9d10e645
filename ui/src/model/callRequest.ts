// A request to open one tool's Call form when its row next appears (the first run's demo
// server: its tools are listed only once it connects). One request at a time; taking it clears it.

let pending: { serverId: string; tool: string } | null = null;

/** Asks for the Call form of `tool` on `serverId` to open when that tool is shown. */
export function requestCall(serverId: string, tool: string): void {
  pending = { serverId, tool };
}

/** Whether the Call form of `tool` on `serverId` was asked for; a yes clears the request. */
export function takeCallRequest(serverId: string, tool: string): boolean {
  if (pending?.serverId !== serverId || pending.tool !== tool) return false;
  pending = null;
  return true;
}
