// What a view may ask of the host (SEP-1865 "Requests (View → Host)" and "Standard MCP Messages",
// plus the draft's `ui/download-file`, `ui/notifications/request-teardown` and
// `sampling/createMessage`), installed on its AppBridge. The host capabilities a session declares
// (AppViewSession's hostCapabilities) are exactly those handled here: openLinks, downloadFile,
// serverTools, serverResources, logging, message, updateModelContext, sampling and sandbox.
// Server requests (`tools/call`, `tools/list`, `resources/read`, `resources/list`,
// `resources/templates/list`, `sampling/createMessage`) go to the engine over IPC, through the
// `app_*` commands, for the app's own server only (gated and audited there, source `app`); an
// engine refusal goes back as JSON-RPC error -32000 with the engine's message (and its code in
// the error's data). `ui/open-link`: anything but an absolute http(s) URL is refused without
// asking (model/appLink); others open only after the person agreed. `ui/download-file`: saved
// only after the person agreed (declined: `isError`). `ui/notifications/request-teardown` closes
// the panel (the view torn down first); `notifications/message` is logged to the console.

import type {
  AppBridge,
  McpUiAppCapabilities,
  McpUiDisplayMode,
  McpUiDownloadFileRequest,
  McpUiMessageRequest,
  McpUiUpdateModelContextRequest,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import type {
  CallToolResult,
  CreateMessageResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from "@modelcontextprotocol/client";
import * as api from "../api/gatehouse";
import type { JsonValue } from "../api/gatehouse";
import { errorMessage, GatehouseError, type GatehouseErrorCode } from "../api/GatehouseError";
import { linkRefusal } from "../model/appLink";

/** Implementation-defined JSON-RPC error code the spec uses for a denied or failed request. */
export const APP_REQUEST_DENIED = -32000;

/** Why a view's request was refused: the engine's error code, or the window's own refusal. */
export type RefusalReason = GatehouseErrorCode | "invalid_url" | "declined";

/** A JSON-RPC error for the view: the SDK answers with this `code`, `message` and `data`. */
export class AppRequestError extends Error {
  readonly code: number;
  readonly data: { reason: RefusalReason } | undefined;

  constructor(message: string, reason?: RefusalReason) {
    super(message);
    this.name = "AppRequestError";
    this.code = APP_REQUEST_DENIED;
    this.data = reason === undefined ? undefined : { reason };
  }
}

/** Something the view sent for the person to see: a `ui/message` or a `ui/update-model-context`. */
export type AppNote =
  | { kind: "message"; params: McpUiMessageRequest["params"] }
  | { kind: "context"; params: McpUiUpdateModelContextRequest["params"] };

/** What the window does for a view: the parts that need the person or the panel. */
export type ViewHost = {
  /** Asks the person whether to open `url` (already known to be http or https). */
  confirmOpenLink: (url: string) => Promise<boolean>;
  /** Asks the person whether to save the offered files. */
  confirmDownload: (contents: McpUiDownloadFileRequest["params"]["contents"]) => Promise<boolean>;
  /** Switches to `mode` if it may, and says the mode the view is in afterwards. */
  requestDisplayMode: (mode: McpUiDisplayMode, appModes: McpUiAppCapabilities["availableDisplayModes"]) => McpUiDisplayMode;
  /** The view's content size changed. */
  sizeChanged: (size: { width?: number | undefined; height?: number | undefined }) => void;
  /** A message or model-context update to list in the panel. */
  note: (note: AppNote) => void;
  /** The view asked to be closed. */
  requestTeardown: () => void;
};

// The results cross IPC as plain JSON; the SDK checks each against its method's result schema
// before it answers the view.
async function engine<T>(call: () => Promise<JsonValue>): Promise<T> {
  try {
    return (await call()) as T;
  } catch (e) {
    const code = e instanceof GatehouseError ? e.code : "internal";
    throw new AppRequestError(errorMessage(e), code);
  }
}

// Every engine call names the open view (its sandbox URL): the engine answers on that view's
// own server, and refuses once the view is closed.
export function installRequestHandlers(bridge: AppBridge, frame: { uri: string; sandboxUrl: string }, host: ViewHost): void {
  const { uri, sandboxUrl: view } = frame;
  bridge.oncalltool = ({ name, arguments: args }) =>
    engine<CallToolResult>(() => api.appCallTool(view, name, (args ?? null) as JsonValue | null));
  bridge.onreadresource = ({ uri: resource }) => engine<ReadResourceResult>(() => api.appReadResource(view, resource));
  bridge.onlistresources = () => engine<ListResourcesResult>(() => api.appListResources(view));
  bridge.onlistresourcetemplates = () => engine<ListResourceTemplatesResult>(() => api.appListResourceTemplates(view));
  bridge.setRequestHandler("tools/list", () => engine<ListToolsResult>(() => api.appListTools(view)));
  bridge.oncreatesamplingmessage = (params) =>
    engine<CreateMessageResult>(() => api.appCreateMessage(view, params as JsonValue));

  bridge.onopenlink = async ({ url }) => {
    const refusal = linkRefusal(url);
    if (refusal !== null) throw new AppRequestError(refusal, "invalid_url");
    if (!(await host.confirmOpenLink(url))) throw new AppRequestError("Link opening denied by user", "declined");
    await engine(() => api.appOpenLink(url));
    return {};
  };

  bridge.ondownloadfile = async (params) => {
    if (!(await host.confirmDownload(params.contents))) return { isError: true };
    await engine(() => api.appDownloadFile(view, params as JsonValue));
    return {};
  };

  bridge.onrequestdisplaymode = ({ mode }) =>
    Promise.resolve({ mode: host.requestDisplayMode(mode, bridge.getAppCapabilities()?.availableDisplayModes) });

  bridge.onmessage = (params) => {
    host.note({ kind: "message", params });
    return Promise.resolve({});
  };
  bridge.onupdatemodelcontext = (params) => {
    host.note({ kind: "context", params });
    return Promise.resolve({});
  };

  bridge.addEventListener("sizechange", (size) => host.sizeChanged(size));
  bridge.addEventListener("requestteardown", () => host.requestTeardown());
  bridge.addEventListener("loggingmessage", ({ level, logger, data }) => {
    console.info(`Gatehouse app ${uri}${logger === undefined ? "" : ` (${logger})`} [${level}]`, data);
  });
}
