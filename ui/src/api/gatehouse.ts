// The ONLY module that touches the generated IPC bindings: unwraps Result values into
// plain promises (throwing GatehouseError) and re-exports the contract types.
// When the generated bindings change, this is the one file to adapt; tests mock it.

import { Channel } from "@tauri-apps/api/core";
import { commands, events } from "../bindings";
import type {
  AppFrame,
  AppSites,
  AppViewMessagesEvent,
  Answer,
  ApprovalsChangedEvent,
  AuthStatus,
  Grant,
  PendingApproval,
  AuditFilter,
  AuditRow,
  CallEvent,
  CallResultView,
  DownloadResult,
  Effect,
  ExportFormat,
  ExportSummary,
  IpcError,
  LogLine,
  Rule,
  RuleInput,
  RuleView,
  ServerPolicyView,
  ToolDefinitionRecord,
  ChainReport,
  ServerInput,
  ServerLogEvent,
  ServerStatusEvent,
  ServerView,
  SiteList,
  TaskRecord,
  TasksChangedEvent,
  ToolInfo,
  UrlSite,
  Value,
  ViewPlacement,
} from "../bindings";
import { GatehouseError } from "./GatehouseError";

export type {
  AuthStatus,
  OAuthClientSettings,
  OAuthGrant,
  LogLine,
  ServerLogEvent,
  Answer,
  ApprovalsChangedEvent,
  Covers,
  DefinitionChange,
  Grant,
  GrantScope,
  PendingApproval,
  Question,
  Scope,
  Source,
  ArgumentMatch,
  AuditFilter,
  AuditKind,
  AuditRow,
  Effect,
  ExportFormat,
  ExportSummary,
  Pattern,
  Rule,
  RuleInput,
  RuleView,
  ServerPolicyView,
  ToolDefinitionRecord,
  VerifyReport,
  ChainReport,
  ChainPart,
  CheckpointStatus,
  KeyStatus,
  CallEvent,
  CallResultView,
  EnvVar,
  HttpHeader,
  Offer,
  ServerConfig,
  ServerInput,
  ServerSpec,
  ServerStatus,
  ServerStatusEvent,
  ServerView,
  TaskRecord,
  TasksChangedEvent,
  ToolInfo,
} from "../bindings";
export type {
  AppCsp,
  AppFrame,
  AppPermissions,
  AppSites,
  AppViewMessagesEvent,
  DownloadResult,
  SiteList,
  ToolUi,
  ToolVisibility,
  UrlSite,
  ViewPlacement,
} from "../bindings";
export type { Value as JsonValue } from "../bindings";
// The generated name is ServerTransport; the UI calls it Transport.
export type { ServerTransport as Transport } from "../bindings";

// The shape every generated command resolves to. Declared here rather than imported because
// not every tauri-specta release exports a named `Result` type.
type CommandResult<T> = { status: "ok"; data: T } | { status: "error"; error: IpcError };

async function unwrap<T>(call: () => Promise<CommandResult<T>>): Promise<T> {
  let result: CommandResult<T>;
  try {
    result = await call();
  } catch (e) {
    // A thrown JS error means the IPC itself failed (e.g. not running inside Tauri).
    const message = e instanceof Error ? e.message : String(e);
    throw new GatehouseError("internal", message || "The Gatehouse engine is not reachable");
  }
  if (result.status === "error") {
    const { code, message } = normalizeIpcError(result.error);
    throw new GatehouseError(code, message);
  }
  return result.data;
}

// The engine always sends {code, message}, but be defensive about what crosses the bridge.
function normalizeIpcError(error: unknown): IpcError {
  if (typeof error === "object" && error !== null) {
    const { code, message } = error as Partial<Record<keyof IpcError, unknown>>;
    return {
      code: typeof code === "string" ? code : "internal",
      message: typeof message === "string" && message ? message : "Unknown error",
    };
  }
  return { code: "internal", message: typeof error === "string" && error ? error : "Unknown error" };
}

export function listServers(): Promise<ServerView[]> {
  return unwrap(() => commands.listServers());
}

export function addServer(input: ServerInput): Promise<ServerView> {
  return unwrap(() => commands.addServer(input));
}

export function updateServer(id: string, input: ServerInput): Promise<ServerView> {
  return unwrap(() => commands.updateServer(id, input));
}

export function removeServer(id: string): Promise<null> {
  return unwrap(() => commands.removeServer(id));
}

export function setServerEnabled(id: string, enabled: boolean): Promise<ServerView> {
  return unwrap(() => commands.setServerEnabled(id, enabled));
}

export function reconnectServer(id: string): Promise<ServerView> {
  return unwrap(() => commands.reconnectServer(id));
}

/** Stops a server's live session gracefully; it stays stopped until started. */
export function stopServer(id: string): Promise<ServerView> {
  return unwrap(() => commands.stopServer(id));
}

/** Starts a server that was stopped, crashed or failed. */
export function startServer(id: string): Promise<ServerView> {
  return unwrap(() => commands.startServer(id));
}

/** What the engine knows about an HTTP server's sign-in (never the tokens). */
export function authStatus(id: string): Promise<AuthStatus> {
  return unwrap(() => commands.authStatus(id));
}

/** Signs in to an HTTP server in the system browser; resolves once the person has finished there. */
export function signIn(id: string): Promise<AuthStatus> {
  return unwrap(() => commands.signIn(id));
}

/** Deletes the server's tokens from the keyring. */
export function signOut(id: string): Promise<null> {
  return unwrap(() => commands.signOut(id));
}

/** Forgets the sign-in at the server's enterprise identity provider (for every server using it). */
export function forgetIdpSignIn(id: string): Promise<null> {
  return unwrap(() => commands.forgetIdpSignIn(id));
}

export function listTools(id: string): Promise<ToolInfo[]> {
  return unwrap(() => commands.listTools(id));
}

export function listTasks(id: string): Promise<TaskRecord[]> {
  return unwrap(() => commands.listTasks(id));
}

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
  const toolArguments = args as CallArguments;
  return unwrap(() => commands.callTool(serverId, callId, tool, toolArguments, channel));
}

type CallArguments = Parameters<typeof commands.callTool>[3];

/** Cancels a running call; false when no call with that id is running. */
export async function cancelCall(callId: string): Promise<boolean> {
  try {
    return await commands.cancelCall(callId);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new GatehouseError("internal", message || "The Gatehouse engine is not reachable");
  }
}

/** Audit rows matching `filter`, newest first. */
export function auditList(filter: AuditFilter): Promise<AuditRow[]> {
  return unwrap(() => commands.auditList(filter));
}

/** Audit rows holding every word of `text`, newest first. */
export function auditSearch(text: string, limit: number | null = null): Promise<AuditRow[]> {
  return unwrap(() => commands.auditSearch(text, limit));
}

/** Recomputes the audit hash chain. */
export function auditVerify(): Promise<ChainReport> {
  return unwrap(() => commands.auditVerify());
}

/** Writes every audit row to the file at `path` (absolute or `~/…`), whole or not at all. */
export function auditExport(format: ExportFormat, path: string): Promise<ExportSummary> {
  return unwrap(() => commands.auditExport(format, path));
}

/** The file an export goes to unless the person names another. */
export async function auditExportSuggestion(format: ExportFormat): Promise<string> {
  try {
    return await commands.auditExportSuggestion(format);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new GatehouseError("internal", message || "The Gatehouse engine is not reachable");
  }
}

/** Every policy rule, with its server's name and stale mark. */
export function policyRules(): Promise<RuleView[]> {
  return unwrap(() => commands.policyRules());
}

/** Every server with its read-only trust setting. */
export function policyServers(): Promise<ServerPolicyView[]> {
  return unwrap(() => commands.policyServers());
}

/** Adds a rule; a rule for a tool is made for the tool's current definition. */
export function policyAddRule(rule: RuleInput): Promise<Rule> {
  return unwrap(() => commands.policyAddRule(rule));
}

export function policyRemoveRule(id: string): Promise<null> {
  return unwrap(() => commands.policyRemoveRule(id));
}

/** Sets (or with null removes) a server's default decision. */
export function policySetServerDefault(server: string, decision: Effect | null): Promise<null> {
  return unwrap(() => commands.policySetServerDefault(server, decision));
}

export function policySetTrustReadOnly(server: string, trust: boolean): Promise<null> {
  return unwrap(() => commands.policySetTrustReadOnly(server, trust));
}

/** The global lists of outside sites app views may reach. */
export function appSites(): Promise<AppSites> {
  return unwrap(() => commands.appSites());
}

/** Puts a domain (or a URL's host) on the allow or block list, moving it off the other. */
export function appSiteAdd(list: SiteList, domain: string): Promise<AppSites> {
  return unwrap(() => commands.appSiteAdd(list, domain));
}

/** Takes a domain off whichever app site list it is on. */
export function appSiteRemove(domain: string): Promise<AppSites> {
  return unwrap(() => commands.appSiteRemove(domain));
}

/** Every definition kept of a server's tools (or one tool's), most recently seen first per tool. */
export function policyDefinitionHistory(server: string, tool: string | null): Promise<ToolDefinitionRecord[]> {
  return unwrap(() => commands.policyDefinitionHistory(server, tool));
}

/** The requests waiting for a person, oldest first (held by the engine, not the window). */
export function listApprovals(): Promise<PendingApproval[]> {
  return invokePlain(() => commands.listApprovals());
}

/**
 * Answers a waiting request. An answer that does not fit (edited arguments that do not match
 * the tool's inputSchema, a form that does not match its schema) fails with `validation`, and
 * the request keeps waiting.
 */
export function answerApproval(id: string, answer: Answer): Promise<null> {
  return unwrap(() => commands.answerApproval(id, answer));
}

/** The standing grants that still hold. */
export function listGrants(): Promise<Grant[]> {
  return unwrap(() => commands.listGrants());
}

/** Revokes a standing grant. */
export function revokeGrant(id: string): Promise<Grant> {
  return unwrap(() => commands.revokeGrant(id));
}

/** Opens an http or https URL in the system browser (the engine refuses anything else). */
export function openExternalUrl(url: string): Promise<null> {
  return unwrap(() => commands.openExternalUrl(url));
}

/** Where a URL leads, as the person sees it before agreeing to open it (site and warnings). */
export function describeUrl(url: string): Promise<UrlSite> {
  return invokePlain(() => commands.describeUrl(url));
}

/** Subscribes to changes of the waiting requests; same unsubscribe semantics as below. */
export function subscribeApprovalsChanged(onEvent: (event: ApprovalsChangedEvent) => void): () => void {
  return subscribe(events.approvalsChangedEvent, "approvals", onEvent);
}

// A command that cannot fail in the engine, so it resolves to its value (or the IPC fails).
async function invokePlain<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new GatehouseError("internal", message || "The Gatehouse engine is not reachable");
  }
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
export function serverLogs(id: string, lines: number): Promise<LogLine[]> {
  return unwrap(() => commands.serverLogs(id, lines));
}

/**
 * Subscribes to new stderr lines of every server, batched (an event at most every 100 ms per
 * server). Same unsubscribe semantics as subscribeServerStatus.
 */
export function subscribeServerLogs(onEvent: (event: ServerLogEvent) => void): () => void {
  return subscribe(events.serverLogEvent, "server log", onEvent);
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

type JsonValue = Value;

/** Reads the UI resource `uri` of the server and opens a sandbox page (its own origin) for it. */
export function appOpenView(serverId: string, uri: string): Promise<AppFrame> {
  return unwrap(() => commands.appOpenView(serverId, uri));
}

/** Forgets an open view and closes its webview (its sandbox page stops being served); false if
 * it was not open. */
export function appCloseView(sandboxUrl: string): Promise<boolean> {
  return invokePlain(() => commands.appCloseView(sandboxUrl));
}

/** Shows the open view `sandboxUrl` in its own webview where `placement` says (over its panel),
 * or hides it; the webview is created the first time. */
export function appPlaceView(sandboxUrl: string, placement: ViewPlacement): Promise<null> {
  return unwrap(() => commands.appPlaceView(sandboxUrl, placement));
}

/** Hands the open view `sandboxUrl` a JSON-RPC message of the host (its proxy page relays it). */
export function appPostToView(sandboxUrl: string, message: object): Promise<null> {
  return unwrap(() => commands.appPostToView(sandboxUrl, message as JsonValue));
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
export function appCallTool(sandboxUrl: string, tool: string, args: JsonValue | null): Promise<JsonValue> {
  return unwrap(() => commands.appCallTool(sandboxUrl, tool, args));
}

/** `resources/read` from the open view `sandboxUrl` (as the list calls below), on its own server;
 * refused with `not_found` once the view is closed. */
export function appReadResource(sandboxUrl: string, uri: string): Promise<JsonValue> {
  return unwrap(() => commands.appReadResource(sandboxUrl, uri));
}

export function appListResources(sandboxUrl: string): Promise<JsonValue> {
  return unwrap(() => commands.appListResources(sandboxUrl));
}

export function appListResourceTemplates(sandboxUrl: string): Promise<JsonValue> {
  return unwrap(() => commands.appListResourceTemplates(sandboxUrl));
}

/** The server's tools an app may call, as a ListToolsResult. */
export function appListTools(sandboxUrl: string): Promise<JsonValue> {
  return unwrap(() => commands.appListTools(sandboxUrl));
}

/** `sampling/createMessage` from an app: the person answers it in the approval dialog. */
export function appCreateMessage(sandboxUrl: string, params: JsonValue): Promise<JsonValue> {
  return unwrap(() => commands.appCreateMessage(sandboxUrl, params));
}

/** Opens an http(s) link from an app in the system browser, once the person agreed. */
export function appOpenLink(url: string): Promise<null> {
  return unwrap(() => commands.appOpenLink(url));
}

/** Saves a file an app offers into Downloads (never over an existing file), once the person agreed. */
export function appDownloadFile(sandboxUrl: string, params: JsonValue): Promise<DownloadResult> {
  return unwrap(() => commands.appDownloadFile(sandboxUrl, params));
}
