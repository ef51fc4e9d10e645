// Builders for ServerView / ToolInfo / TaskRecord test data, including plain and secret env vars and headers
// and roots (as the engine returns them: file:// URIs).

import type {
  EnvVar,
  HttpHeader,
  Offer,
  ServerSpec,
  ServerStatus,
  ServerView,
  TaskRecord,
  ToolInfo,
} from "../api/gatehouse";

let nextId = 1;

export function makeServer(name: string, status: ServerStatus, spec?: ServerSpec, roots: string[] = []): ServerView {
  const id = `srv-${nextId++}`;
  return {
    config: {
      id,
      name,
      enabled: status.state !== "disabled",
      roots,
      spec: spec ?? { kind: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], env: [], cwd: null, stop: { stdinMs: 2000, termMs: 3000 } },
      createdAt: "2025-01-02T03:04:05Z",
      updatedAt: "2025-01-02T03:04:05Z",
    },
    status,
  };
}

/** A connected status with `toolCount` tools, offering `offers` (tools alone unless told otherwise). */
export function connected(
  toolCount: number,
  era: "legacy" | "modern" = "legacy",
  offers: Offer[] = ["tools"],
): ServerStatus {
  const protocolVersion = era === "modern" ? "2026-07-28" : "2025-06-18";
  return { state: "connected", protocolVersion, era, serverName: "everything", serverVersion: "1.0.0", toolCount, offers };
}

export function makeTool(name: string, extra: Partial<ToolInfo> = {}): ToolInfo {
  return {
    name,
    title: null,
    description: null,
    inputSchema: { type: "object", properties: { message: { type: "string" } } },
    ui: null,
    ...extra,
  };
}

/** A task of `serverId` running `tool`, as the engine lists it; working and just started unless told otherwise. */
export function makeTask(serverId: string, tool: string, extra: Partial<TaskRecord> = {}): TaskRecord {
  const startedAt = new Date().toISOString();
  return {
    serverId,
    taskId: `task-${nextId++}`,
    tool,
    status: "working",
    statusMessage: null,
    pollMs: 1000,
    recorderPid: 4242,
    startedAt,
    updatedAt: startedAt,
    ...extra,
  };
}

export function plainEnv(key: string, value: string): EnvVar {
  return { key, value, secret: false };
}

/** A secret as the engine returns it: the value stays in the keyring, so it is "" by default. */
export function secretEnv(key: string, value = ""): EnvVar {
  return { key, value, secret: true };
}

export function plainHeader(name: string, value: string): HttpHeader {
  return { name, value, secret: false };
}

/** A secret header as the engine returns it: value "" unless a test says otherwise. */
export function secretHeader(name: string, value = ""): HttpHeader {
  return { name, value, secret: true };
}

/** A stdio spec with one plain and two secret env vars, as read back from the engine. */
export function stdioSpecWithSecrets(): ServerSpec {
  return {
    kind: "stdio",
    command: "npx",
    args: ["-y", "pkg"],
    env: [plainEnv("DEBUG", "1"), secretEnv("API_KEY"), secretEnv("DB_PASSWORD")],
    cwd: null,
    stop: { stdinMs: 2000, termMs: 3000 },
  };
}

/** An http spec with one plain and one secret header, as read back from the engine. */
export function httpSpecWithSecrets(): ServerSpec {
  return {
    kind: "http",
    url: "https://mcp.example.com/mcp",
    transport: "auto",
    headers: [plainHeader("X-Client", "gatehouse"), secretHeader("Authorization")],
  };
}
