// Test double for src/api/gatehouse.ts: every command is a vi.fn, and status events
// can be pushed to subscribers with emitStatus(). Use via
//   vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

import { vi } from "vitest";
import type * as real from "../api/gatehouse";
import type { ServerStatusEvent } from "../api/gatehouse";

export const listServers = vi.fn<typeof real.listServers>();
export const addServer = vi.fn<typeof real.addServer>();
export const updateServer = vi.fn<typeof real.updateServer>();
export const removeServer = vi.fn<typeof real.removeServer>();
export const setServerEnabled = vi.fn<typeof real.setServerEnabled>();
export const reconnectServer = vi.fn<typeof real.reconnectServer>();
export const listTools = vi.fn<typeof real.listTools>();

const subscribers = new Set<(event: ServerStatusEvent) => void>();

export const subscribeServerStatus = vi.fn<typeof real.subscribeServerStatus>((onEvent) => {
  subscribers.add(onEvent);
  return () => subscribers.delete(onEvent);
});

/** Delivers a status event to every current subscriber, as the engine would. */
export function emitStatus(event: ServerStatusEvent): void {
  for (const subscriber of [...subscribers]) subscriber(event);
}

export function subscriberCount(): number {
  return subscribers.size;
}

/** Resets all call records; every command rejects until a test gives it a result. */
export function resetFakeGatehouse(): void {
  for (const fn of [listServers, addServer, updateServer, removeServer, setServerEnabled, reconnectServer, listTools]) {
    fn.mockReset();
  }
  listServers.mockResolvedValue([]);
  listTools.mockResolvedValue([]);
  subscribeServerStatus.mockClear();
  subscribers.clear();
}
