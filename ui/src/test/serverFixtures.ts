// Builders for ServerView / ToolInfo test data.

import type { ServerSpec, ServerStatus, ServerView, ToolInfo } from "../api/gatehouse";

let nextId = 1;

export function makeServer(name: string, status: ServerStatus, spec?: ServerSpec): ServerView {
  const id = `srv-${nextId++}`;
  return {
    config: {
      id,
      name,
      enabled: status.state !== "disabled",
      spec: spec ?? { kind: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], env: [], cwd: null },
      createdAt: "2025-01-02T03:04:05Z",
      updatedAt: "2025-01-02T03:04:05Z",
    },
    status,
  };
}

export function connected(toolCount: number): ServerStatus {
  return { state: "connected", protocolVersion: "2025-06-18", serverName: "everything", serverVersion: "1.0.0", toolCount };
}

export function makeTool(name: string, extra: Partial<ToolInfo> = {}): ToolInfo {
  return {
    name,
    title: null,
    description: null,
    inputSchema: { type: "object", properties: { message: { type: "string" } } },
    ...extra,
  };
}
