// Human-readable labels and explanations for a server's connection status, and what a server
// without tools offers instead.

import type { Offer, ServerStatus } from "../api/gatehouse";

/** Short badge text, e.g. "Connected · 3 tools", or "Connected · prompts, resources" for a server without tools. */
export function statusLabel(status: ServerStatus): string {
  switch (status.state) {
    case "disabled":
      return "Disabled";
    case "connecting":
      return "Connecting…";
    case "connected":
      if (status.offers.includes("tools")) {
        return `Connected · ${status.toolCount} ${status.toolCount === 1 ? "tool" : "tools"}`;
      }
      return `Connected · ${status.offers.length > 0 ? status.offers.join(", ") : "no tools"}`;
    case "degraded":
      return `Degraded · ${status.misses} missed ${status.misses === 1 ? "check" : "checks"}`;
    case "failed":
      return "Failed";
    case "restarting":
      return `Restarting in ${Math.max(1, Math.round(status.inMs / 1000))} s`;
    case "reconnecting":
      return `Reconnecting in ${Math.max(1, Math.round(status.inMs / 1000))} s`;
    case "crashed":
      return "Crashed";
    case "authRequired":
      return "Authorization required";
    case "stopped":
      return "Stopped";
  }
}

/** The last stderr lines of a server that exited, oldest first (empty for other states). */
export function lastStderr(status: ServerStatus): string[] {
  return status.state === "restarting" || status.state === "crashed" ? status.lastStderr : [];
}

/** What a server without tools offers instead, as a sentence: "It offers prompts and resources." */
export function offersSentence(offers: Offer[]): string {
  const last = offers.at(-1);
  if (last === undefined) return "It offers nothing else either.";
  const rest = offers.slice(0, -1);
  return `It offers ${rest.length > 0 ? `${rest.join(", ")} and ${last}` : last}.`;
}

/** How a connection's era reads to a person: the 2026-07-28 revision is stateless. */
export function eraLabel(era: string): string {
  switch (era) {
    case "modern":
      return "modern, stateless";
    case "legacy":
      return "legacy handshake";
    default:
      return era;
  }
}

/** A sentence explaining why tools are (not) available, for the detail view. */
export function statusExplanation(status: ServerStatus): string {
  switch (status.state) {
    case "disabled":
      return "This server is disabled, so Gatehouse is not running it. Enable it to connect.";
    case "connecting":
      return "Gatehouse is connecting to this server…";
    case "connected":
      return `Connected to ${status.serverName || "server"} ${status.serverVersion} (MCP ${status.protocolVersion}, ${eraLabel(status.era)}).`;
    case "degraded":
      return `The server stopped answering health checks (${status.reason}). Calls still go to it; Gatehouse starts it again if it keeps missing them.`;
    case "failed":
      return `Connection failed: ${status.message}`;
    case "restarting":
      return `The server ended (${status.message}). Gatehouse starts it again in ${Math.max(1, Math.round(status.inMs / 1000))} s (restart ${status.attempt}).`;
    case "reconnecting":
      return `The server was lost (${status.message}). Gatehouse connects again in ${Math.max(1, Math.round(status.inMs / 1000))} s (attempt ${status.attempt}).`;
    case "crashed":
      return `The server ended ${status.exits} times within a minute, so Gatehouse stopped restarting it. Last: ${status.message}`;
    case "authRequired":
      return `The server asks for authorization (${status.message}). Sign in, or add its credentials as a secret header (e.g. Authorization: Bearer …) and reconnect.`;
    case "stopped":
      return "This server was stopped. Start it to connect again.";
  }
}
