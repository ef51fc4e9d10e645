// The ONLY module that calls the generated IPC bindings: unwraps Result values into
// plain promises (throwing GatehouseError, whose code is the generated ErrorCode) through one
// typed unwrapper, and re-exports the contract types (other modules import types only).
// When the generated bindings change, this is the one file to adapt; tests mock it.

import { Channel } from "@tauri-apps/api/core";
import { commands, events } from "../bindings";
import type {
  AgentsPausedEvent,
  ApprovalChosenEvent,
  ApprovalsChangedEvent,
  AppViewMessagesEvent,
  CallEvent,
  CallResultView,
  IpcError,
  ResourceUpdate,
  ServerLogEvent,
  ServerStatusEvent,
  ServerTrafficEvent,
  TasksChangedEvent,
  Value,
} from "../bindings";
import { GatehouseError, isErrorCode, type GatehouseErrorCode } from "./GatehouseError";

export type * from "./types";

type Commands = typeof commands;

// What a generated command that can fail resolves to (tauri-specta's typedError shape).
type CommandResult<T> = { status: "ok"; data: T } | { status: "error"; error: IpcError };

// The generated commands that resolve to a CommandResult, and what each yields on success.
type FallibleName = {
  [K in keyof Commands]: Awaited<ReturnType<Commands[K]>> extends CommandResult<unknown> ? K : never;
}[keyof Commands];
type DataOf<K extends keyof Commands> = Awaited<ReturnType<Commands[K]>> extends CommandResult<infer T> ? T : never;

/** The API function for a generated command that can fail: same arguments, resolves to the
 * data, throws GatehouseError with the engine's typed code. */
function fallible<K extends FallibleName>(name: K): (...args: Parameters<Commands[K]>) => Promise<DataOf<K>> {
  return (...args) => {
    const command = commands[name] as (...a: Parameters<Commands[K]>) => Promise<CommandResult<DataOf<K>>>;
    return unwrap(() => command(...args));
  };
}

/** The API function for a generated command that cannot fail in the engine: only the IPC itself
 * can, which throws GatehouseError `internal`. */
function infallible<K extends Exclude<keyof Commands, FallibleName>>(
  name: K,
): (...args: Parameters<Commands[K]>) => Promise<Awaited<ReturnType<Commands[K]>>> {
  return (...args) => {
    const command = commands[name] as (...a: Parameters<Commands[K]>) => Promise<Awaited<ReturnType<Commands[K]>>>;
    return reachEngine(() => command(...args));
  };
}

async function reachEngine<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    // A thrown JS error means the IPC itself failed (e.g. not running inside Tauri).
    const message = e instanceof Error ? e.message : String(e);
    throw new GatehouseError("internal", message || "The Gatehouse engine is not reachable");
  }
}

/** The one unwrapper: a command's Result into its data, or a thrown GatehouseError. */
async function unwrap<T>(call: () => Promise<CommandResult<T>>): Promise<T> {
  const result = await reachEngine(call);
  if (result.status === "error") {
    const { code, message } = normalizeIpcError(result.error);
    throw new GatehouseError(code, message);
  }
  return result.data;
}

// The engine always sends {code, message}, but be defensive about what crosses the bridge.
function normalizeIpcError(error: unknown): { code: GatehouseErrorCode; message: string } {
  if (typeof error === "object" && error !== null) {
    const { code, message } = error as Partial<Record<keyof IpcError, unknown>>;
    return {
      code: isErrorCode(code) ? code : "internal",
      message: typeof message === "string" && message ? message : "Unknown error",
    };
  }
  return { code: "internal", message: typeof error === "string" && error ? error : "Unknown error" };
}

export const listServers = fallible("listServers");
export const addServer = fallible("addServer");
export const updateServer = fallible("updateServer");
export const removeServer = fallible("removeServer");
export const setServerEnabled = fallible("setServerEnabled");
export const reconnectServer = fallible("reconnectServer");
/** Stops a server's live session gracefully; it stays stopped until started. */
export const stopServer = fallible("stopServer");
/** Starts a server that was stopped, crashed or failed. */
export const startServer = fallible("startServer");
/** What the engine knows about an HTTP server's sign-in (never the tokens). */
export const authStatus = fallible("authStatus");
/** Signs in to an HTTP server in the system browser; resolves once the person has finished there. */
export const signIn = fallible("signIn");
/** Deletes the server's tokens from the keyring. */
export const signOut = fallible("signOut");
/** Forgets the sign-in at the server's enterprise identity provider (for every server using it). */
export const forgetIdpSignIn = fallible("forgetIdpSignIn");
export const listTools = fallible("listTools");
export const listTasks = fallible("listTasks");
/** A connected server's icon as a checked `data:` URI for the theme, or null (see the engine's `icons`). */
export const serverIcon = fallible("serverIcon");

/**
 * Calls `tool` on the server's live session as the person's own call. `callId` names the call
 * for cancelCall; progress and task statuses go to `onEvent` while it runs. A cancelled call
 * resolves with `cancelled: true`.
 */
export function callTool(
  serverId: string,
  callId: string,
  tool: string,
  args: Record<string, unknown>,
  onEvent: (event: CallEvent) => void,
): Promise<CallResultView> {
  const channel = new Channel<CallEvent>();
  channel.onmessage = onEvent;
  // JSON arguments cross IPC as they are.
  return fallible("callTool")(serverId, callId, tool, args as Value, channel);
}

/** One page of a server's resources from `cursor` (null: the first); `nextCursor` names the next. */
export const listResourcesPage = fallible("listResourcesPage");
/** One page of a server's resource templates from `cursor`. */
export const listResourceTemplatesPage = fallible("listResourceTemplatesPage");
/** Reads a resource through the gate, as the person's request. */
export const readResource = fallible("readResource");
/** Saves a resource's contents into the Downloads folder; resolves to the file's path. */
export const saveResourceContents = fallible("saveResourceContents");
/** One page of a server's prompts from `cursor`. */
export const listPromptsPage = fallible("listPromptsPage");
/** A prompt filled in with `args` (every value a string), got through the gate. */
export const getPrompt = fallible("getPrompt");
/** The server's suggestions for `argument` of a prompt (`reference` its name) or of a resource
 * template (`template`, `reference` its URI template), given `value` typed so far and `context`. */
export const completeArgument = fallible("completeArgument");
/** Ends the window's subscription to a resource (the server is told when nobody else wants it). */
export const unsubscribeResource = fallible("unsubscribeResource");

/** Subscribes to a resource's updates; each update (coalesced by the engine) goes to `onUpdate`
 * until unsubscribeResource. */
export function subscribeResource(
  serverId: string,
  uri: string,
  onUpdate: (update: ResourceUpdate) => void,
): Promise<null> {
  const channel = new Channel<ResourceUpdate>();
  channel.onmessage = onUpdate;
  return fallible("subscribeResource")(serverId, uri, channel);
}

/** Cancels a running call; false when no call with that id is running. */
export const cancelCall = infallible("cancelCall");
/** Audit rows matching `filter`, newest first. */
export const auditList = fallible("auditList");
/** Audit rows holding every word of `text` (at most `limit`, or the engine's default), newest first. */
export const auditSearch = fallible("auditSearch");
/** Recomputes the audit hash chain. */
export const auditVerify = fallible("auditVerify");
/** Writes every audit row to the file at `path` (absolute or `~/…`), whole or not at all. */
export const auditExport = fallible("auditExport");
/** The file an export goes to unless the person names another. */
export const auditExportSuggestion = infallible("auditExportSuggestion");
/** Every policy rule, with its server's name and stale mark. */
export const policyRules = fallible("policyRules");
/** Every server with its read-only trust setting. */
export const policyServers = fallible("policyServers");
/** Adds a rule; a rule for a tool is made for the tool's current definition. */
export const policyAddRule = fallible("policyAddRule");
export const policyRemoveRule = fallible("policyRemoveRule");
/** Sets (or with null removes) a server's default decision. */
export const policySetServerDefault = fallible("policySetServerDefault");
export const policySetTrustReadOnly = fallible("policySetTrustReadOnly");
/** The gateway's clients, by name (tokens are never listed). */
export const clientsList = fallible("clientsList");
/** One client: its record, profile and recent requests. */
export const clientsShow = fallible("clientsShow");
/** Changes a client's profile (null: the default profile): all of the change or none. */
export const clientsSetProfile = fallible("clientsSetProfile");
export const clientsAdd = fallible("clientsAdd");
export const clientsRemove = fallible("clientsRemove");
/** Creates a client's token (replacing its old one) and returns it: to be shown once, never kept. */
export const clientsCreateToken = fallible("clientsCreateToken");
export const clientsRevokeToken = fallible("clientsRevokeToken");
/** Sets whether the client sees every tool and prompt name as `SERVER__NAME`. */
export const clientsSetPrefix = fallible("clientsSetPrefix");
/** A client's profile, own and effective (null: the default profile). */
export const clientsProfile = fallible("clientsProfile");
/** Whether the gateway serves HTTP, on which port, and whether the app listens there now. */
export const gatewayHttpSettings = fallible("gatewayHttpSettings");
/** Turns the gateway's HTTP endpoint on or off (on a new port when given). */
export const gatewaySetHttp = fallible("gatewaySetHttp");
/** The agents whose MCP config files exist here (and in the project folder given). */
export const agentsFound = fallible("agentsFound");
/** The plan for importing an agent's servers (secrets masked), kept by the engine under its id. */
export const importPreview = fallible("importPreview");
/** Imports exactly the plan previewed under the id; refused if a file changed since. */
export const importApply = fallible("importApply");
/** The change connecting an agent would make to its config (the diff, secrets masked), kept by the engine under its id. */
export const connectPreview = fallible("connectPreview");
/** Writes exactly the connect previewed under the id; refused if the file changed since. */
export const connectApply = fallible("connectApply");
/** Puts the agent's file back as it was before its latest connect (`force`: even if it changed since). */
export const connectUndo = fallible("connectUndo");
/** The waiting request chosen in the tray or a notification before the window opened, once. */
export const takeChosenApproval = infallible("takeChosenApproval");
/** Whether Gatehouse starts hidden in the tray at login, and where its autostart entry is. */
export const startAtLogin = fallible("startAtLogin");
/** Starts Gatehouse hidden in the tray at login (true), or not. */
export const setStartAtLogin = fallible("setStartAtLogin");
/** Whether every agent's requests are paused (asked about). */
export const agentsPaused = infallible("agentsPaused");
/** Pauses or resumes every agent's requests; resolves to the state now. */
export const setAgentsPaused = fallible("setAgentsPaused");
/** The engine's settings (approval timeout, default stop graces, health checks, audit retention). */
export const engineSettings = fallible("engineSettings");
/** Stores and applies the engine's settings; a value out of range is a `validation` error. */
export const setEngineSettings = fallible("setEngineSettings");
/** The data directory the engine keeps everything in. */
export const dataDir = infallible("dataDir");
/** Opens the data directory in the file manager. */
export const openDataDir = fallible("openDataDir");
/** The app's version and the bundled libraries' licences. */
export const about = fallible("about");
/** Adds the bundled demo server as `demo` (or returns it when it is there). */
export const addDemoServer = fallible("addDemoServer");
/** The global lists of outside sites app views may reach. */
export const appSites = fallible("appSites");
/** Puts a domain (or a URL's host) on the allow or block list, moving it off the other. */
export const appSiteAdd = fallible("appSiteAdd");
/** Takes a domain off whichever app site list it is on. */
export const appSiteRemove = fallible("appSiteRemove");
/** Every definition kept of a server's tools (or one tool's), most recently seen first per tool. */
export const policyDefinitionHistory = fallible("policyDefinitionHistory");
/** The requests waiting for a person, oldest first (held by the engine, not the window). */
export const listApprovals = infallible("listApprovals");
/**
 * Answers a waiting request. An answer that does not fit (edited arguments that do not match
 * the tool's inputSchema, a form that does not match its schema) fails with `validation`, and
 * the request keeps waiting.
 */
export const answerApproval = fallible("answerApproval");
/** The standing grants that still hold. */
export const listGrants = fallible("listGrants");
/** Revokes a standing grant. */
export const revokeGrant = fallible("revokeGrant");
/** Opens an http or https URL in the system browser (the engine refuses anything else). */
export const openExternalUrl = fallible("openExternalUrl");
/** Where a URL leads, as the person sees it before agreeing to open it (site and warnings). */
export const describeUrl = infallible("describeUrl");

/** Subscribes to the person choosing a waiting request outside the window (tray, notification). */
export function subscribeApprovalChosen(onEvent: (event: ApprovalChosenEvent) => void): () => void {
  return subscribe(events.approvalChosenEvent, "approval chosen", onEvent);
}

/** Subscribes to the agents being paused or resumed (from the tray or the Settings page). */
export function subscribeAgentsPaused(onEvent: (event: AgentsPausedEvent) => void): () => void {
  return subscribe(events.agentsPausedEvent, "agents paused", onEvent);
}

/** Subscribes to changes of the waiting requests; same unsubscribe semantics as below. */
export function subscribeApprovalsChanged(onEvent: (event: ApprovalsChangedEvent) => void): () => void {
  return subscribe(events.approvalsChangedEvent, "approvals", onEvent);
}

/**
 * Subscribes to live server status changes. Returns a synchronous unsubscribe
 * function that is safe to call before the underlying listener is registered.
 */
export function subscribeServerStatus(onEvent: (event: ServerStatusEvent) => void): () => void {
  return subscribe(events.serverStatusEvent, "server status", onEvent);
}

/**
 * Subscribes to changes of any server's task log (a task started, moved on or ended); the
 * event names the server. Same unsubscribe semantics as subscribeServerStatus.
 */
export function subscribeTasksChanged(onEvent: (event: TasksChangedEvent) => void): () => void {
  return subscribe(events.tasksChangedEvent, "task", onEvent);
}

/** The last `lines` stderr lines of a server (at most 10,000), oldest first, redacted. */
export const serverLogs = fallible("serverLogs");

/**
 * Subscribes to new stderr lines of every server, batched (an event at most every 100 ms per
 * server). Same unsubscribe semantics as subscribeServerStatus.
 */
export function subscribeServerLogs(onEvent: (event: ServerLogEvent) => void): () => void {
  return subscribe(events.serverLogEvent, "server log", onEvent);
}

/**
 * A server's JSON-RPC messages after sequence number `after` (0: all kept), at most `limit`,
 * oldest first, redacted of secrets in the engine.
 */
export const serverTraffic = fallible("serverTraffic");

/**
 * Subscribes to new JSON-RPC messages of every server, batched (an event at most every 150 ms
 * per server, bounded). Same unsubscribe semantics as subscribeServerStatus.
 */
export function subscribeServerTraffic(onEvent: (event: ServerTrafficEvent) => void): () => void {
  return subscribe(events.serverTrafficEvent, "server traffic", onEvent);
}

// The part of a generated event that subscribing needs.
type EventSource<T> = {
  listen: (handler: (event: { payload: T }) => void) => Promise<() => void>;
};

function subscribe<T>(source: EventSource<T>, what: string, onEvent: (payload: T) => void): () => void {
  let unlisten: (() => void) | null = null;
  let cancelled = false;
  source
    .listen((e) => {
      if (!cancelled) onEvent(e.payload);
    })
    .then((fn) => {
      if (cancelled) fn();
      else unlisten = fn;
    })
    .catch((e: unknown) => {
      // Outside Tauri (plain browser dev) there is no event bus; the UI still works read-only.
      console.warn(`Gatehouse: could not subscribe to ${what} events`, e);
    });
  return () => {
    cancelled = true;
    unlisten?.();
    unlisten = null;
  };
}

// MCP Apps (SEP-1865): the view of a tool's `ui://` resource, and what the app asks of the host.
// Every request an app makes is for its own server only, and goes through the engine's gate
// (policy, approval, audit) with source `app`.

/** Reads the UI resource `uri` of the server and opens a sandbox page (its own origin) for it. */
export const appOpenView = fallible("appOpenView");

/** Forgets an open view and closes its webview (its sandbox page stops being served); false if
 * it was not open. */
export const appCloseView = infallible("appCloseView");

/** Shows the open view `sandboxUrl` in its own webview where `placement` says (over its panel),
 * or hides it; the webview is created the first time. */
export const appPlaceView = fallible("appPlaceView");

/** Hands the open view `sandboxUrl` a JSON-RPC message of the host (its proxy page relays it). */
export function appPostToView(sandboxUrl: string, message: object): Promise<null> {
  return fallible("appPostToView")(sandboxUrl, message as Value);
}

/**
 * Listens to what the open views send the host (relayed by their proxy pages, in order). Resolves
 * once the listener is registered (a view placed after that cannot be missed), to the function
 * that stops it.
 */
export function listenAppViewMessages(onEvent: (event: AppViewMessagesEvent) => void): Promise<() => void> {
  return events.appViewMessagesEvent.listen((e) => onEvent(e.payload));
}

/** `tools/call` from the open view `sandboxUrl`, on its own server: refused with `denied` for a
 * tool that is not app-visible; cancelled when the view is closed. */
export const appCallTool = fallible("appCallTool");

/** `resources/read` from the open view `sandboxUrl` (as the list calls below), on its own server;
 * refused with `not_found` once the view is closed. */
export const appReadResource = fallible("appReadResource");

export const appListResources = fallible("appListResources");

export const appListResourceTemplates = fallible("appListResourceTemplates");

/** The server's tools an app may call, as a ListToolsResult. */
export const appListTools = fallible("appListTools");

/** `sampling/createMessage` from an app: the person answers it in the approval dialog. */
export const appCreateMessage = fallible("appCreateMessage");

/** Opens an http(s) link from an app in the system browser, once the person agreed. */
export const appOpenLink = fallible("appOpenLink");

/** Saves a file an app offers into Downloads (never over an existing file), once the person agreed. */
export const appDownloadFile = fallible("appDownloadFile");
