// The MCP Apps IPC commands, written by hand in the generated bindings' shape (a `typedError`
// Result per command) until tauri-specta generates them into ../bindings. When it does, this file
// goes and gatehouse.ts calls `commands.app*` instead; nothing else changes.

import { invoke } from "@tauri-apps/api/core";
import type { IpcError, Value } from "../bindings";

/** The CSP domains a UI resource declares (already validated by the engine). */
export type AppCsp = {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
};

/** The browser permissions a UI resource asks for. */
export type AppPermissions = { camera: boolean; microphone: boolean; geolocation: boolean; clipboardWrite: boolean };

/** A UI resource ready to render, and the sandbox page (on its own origin) to render it in. */
export type AppFrame = {
  sandboxUrl: string;
  sandboxOrigin: string;
  uri: string;
  html: string;
  csp: AppCsp;
  policy: string;
  permissions: AppPermissions;
  prefersBorder: boolean | null;
  domain: string | null;
};

/** Where `app_download_file` wrote the file. */
export type AppDownload = { path: string };

type Result<T> = { status: "ok"; data: T } | { status: "error"; error: IpcError };

async function typedError<T>(result: Promise<T>): Promise<Result<T>> {
  try {
    return { status: "ok", data: await result };
  } catch (e) {
    if (e instanceof Error) throw e;
    return { status: "error", error: e as IpcError };
  }
}

export const appCommands = {
  appOpenView: (serverId: string, uri: string) => typedError<AppFrame>(invoke("app_open_view", { serverId, uri })),
  appCloseView: (sandboxUrl: string) => typedError<null>(invoke("app_close_view", { sandboxUrl })),
  appCallTool: (serverId: string, tool: string, toolArguments: Value | null) =>
    typedError<Value>(invoke("app_call_tool", { serverId, tool, toolArguments })),
  appReadResource: (serverId: string, uri: string) => typedError<Value>(invoke("app_read_resource", { serverId, uri })),
  appListResources: (serverId: string) => typedError<Value>(invoke("app_list_resources", { serverId })),
  appListResourceTemplates: (serverId: string) =>
    typedError<Value>(invoke("app_list_resource_templates", { serverId })),
  appListTools: (serverId: string) => typedError<Value>(invoke("app_list_tools", { serverId })),
  appCreateMessage: (serverId: string, params: Value) =>
    typedError<Value>(invoke("app_create_message", { serverId, params })),
  appOpenLink: (url: string) => typedError<null>(invoke("app_open_link", { url })),
  appDownloadFile: (serverId: string, params: Value) =>
    typedError<AppDownload>(invoke("app_download_file", { serverId, params })),
};
