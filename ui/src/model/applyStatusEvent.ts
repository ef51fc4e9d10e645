// Pure state update: applies a live status event to the server list.

import type { ServerStatusEvent, ServerView } from "../api/gatehouse";

/** Returns a new list with the matching server's status replaced, or the same list if the id is unknown. */
export function applyStatusEvent(servers: ServerView[], event: ServerStatusEvent): ServerView[] {
  if (!servers.some((s) => s.config.id === event.id)) return servers;
  return servers.map((s) => (s.config.id === event.id ? { ...s, status: event.status } : s));
}

/** Returns a new list with `view` replacing the server of the same id, or appended if it is new. */
export function upsertServerView(servers: ServerView[], view: ServerView): ServerView[] {
  if (!servers.some((s) => s.config.id === view.config.id)) return [...servers, view];
  return servers.map((s) => (s.config.id === view.config.id ? view : s));
}
