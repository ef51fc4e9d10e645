// Human-readable labels and explanations for a server's connection status.

import type { ServerStatus } from "../api/gatehouse";

/** Short badge text, e.g. "Connected · 3 tools". */
export function statusLabel(status: ServerStatus): string {
  switch (status.state) {
    case "disabled":
      return "Disabled";
    case "connecting":
      return "Connecting…";
    case "connected":
      return `Connected · ${status.toolCount} ${status.toolCount === 1 ? "tool" : "tools"}`;
    case "failed":
      return "Failed";
  }
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
    case "failed":
      return `Connection failed: ${status.message}`;
  }
}
