// Test double for src/api/gatehouse.ts: every command is a vi.fn, and events can be pushed to
// subscribers with emitStatus() / emitTasksChanged() / emitServerLog(). Use via
//   vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

import { vi } from "vitest";
import type * as real from "../api/gatehouse";
import type {
  AgentsPausedEvent,
  ApprovalChosenEvent,
  AppViewMessagesEvent,
  ApprovalsChangedEvent,
  ServerLogEvent,
  ServerTrafficEvent,
  ServerStatusEvent,
  TasksChangedEvent,
} from "../api/gatehouse";

export const listServers = vi.fn<typeof real.listServers>();
export const addServer = vi.fn<typeof real.addServer>();
export const updateServer = vi.fn<typeof real.updateServer>();
export const removeServer = vi.fn<typeof real.removeServer>();
export const setServerEnabled = vi.fn<typeof real.setServerEnabled>();
export const reconnectServer = vi.fn<typeof real.reconnectServer>();
export const listTools = vi.fn<typeof real.listTools>();
export const listTasks = vi.fn<typeof real.listTasks>();
export const serverIcon = vi.fn<typeof real.serverIcon>();
export const callTool = vi.fn<typeof real.callTool>();
export const cancelCall = vi.fn<typeof real.cancelCall>();
const EMPTY_PAGE = { items: [], malformed: [], nextCursor: null };
export const listResourcesPage = vi.fn<typeof real.listResourcesPage>();
export const listResourceTemplatesPage = vi.fn<typeof real.listResourceTemplatesPage>();
export const readResource = vi.fn<typeof real.readResource>();
export const saveResourceContents = vi.fn<typeof real.saveResourceContents>();
export const subscribeResource = vi.fn<typeof real.subscribeResource>();
export const unsubscribeResource = vi.fn<typeof real.unsubscribeResource>();
export const listPromptsPage = vi.fn<typeof real.listPromptsPage>();
export const getPrompt = vi.fn<typeof real.getPrompt>();
export const completeArgument = vi.fn<typeof real.completeArgument>();
export const listApprovals = vi.fn<typeof real.listApprovals>(() => Promise.resolve([]));
export const answerApproval = vi.fn<typeof real.answerApproval>(() => Promise.resolve(null));
export const listGrants = vi.fn<typeof real.listGrants>(() => Promise.resolve([]));
export const revokeGrant = vi.fn<typeof real.revokeGrant>();
export const openExternalUrl = vi.fn<typeof real.openExternalUrl>(() => Promise.resolve(null));
/** Names the link's host, with no warnings, unless a test says otherwise. */
const hostOf = (url: string) => Promise.resolve({ domain: URL.canParse(url) ? new URL(url).hostname : "", warnings: [] });
export const describeUrl = vi.fn<typeof real.describeUrl>(hostOf);
export const auditList = vi.fn<typeof real.auditList>();
export const auditSearch = vi.fn<typeof real.auditSearch>();
export const auditVerify = vi.fn<typeof real.auditVerify>();
export const auditExport = vi.fn<typeof real.auditExport>();
export const auditExportSuggestion = vi.fn<typeof real.auditExportSuggestion>();
export const policyRules = vi.fn<typeof real.policyRules>();
export const policyServers = vi.fn<typeof real.policyServers>();
export const policyAddRule = vi.fn<typeof real.policyAddRule>();
export const policyRemoveRule = vi.fn<typeof real.policyRemoveRule>();
export const policySetServerDefault = vi.fn<typeof real.policySetServerDefault>();
export const policySetTrustReadOnly = vi.fn<typeof real.policySetTrustReadOnly>();
export const policyDefinitionHistory = vi.fn<typeof real.policyDefinitionHistory>();
export const serverLogs = vi.fn<typeof real.serverLogs>();
export const serverTraffic = vi.fn<typeof real.serverTraffic>();
export const clientsList = vi.fn<typeof real.clientsList>();
export const clientsShow = vi.fn<typeof real.clientsShow>();
export const clientsSetProfile = vi.fn<typeof real.clientsSetProfile>();
export const clientsAdd = vi.fn<typeof real.clientsAdd>();
export const clientsRemove = vi.fn<typeof real.clientsRemove>();
export const clientsCreateToken = vi.fn<typeof real.clientsCreateToken>();
export const clientsRevokeToken = vi.fn<typeof real.clientsRevokeToken>();
export const clientsSetPrefix = vi.fn<typeof real.clientsSetPrefix>();
export const clientsProfile = vi.fn<typeof real.clientsProfile>();
export const gatewayHttpSettings = vi.fn<typeof real.gatewayHttpSettings>();
export const gatewaySetHttp = vi.fn<typeof real.gatewaySetHttp>();
export const agentsFound = vi.fn<typeof real.agentsFound>(() => Promise.resolve([]));
export const importPreview = vi.fn<typeof real.importPreview>();
export const importApply = vi.fn<typeof real.importApply>();
export const connectPreview = vi.fn<typeof real.connectPreview>();
export const connectApply = vi.fn<typeof real.connectApply>();
export const connectUndo = vi.fn<typeof real.connectUndo>();
export const startAtLogin = vi.fn<typeof real.startAtLogin>();
export const takeChosenApproval = vi.fn<typeof real.takeChosenApproval>();
export const setStartAtLogin = vi.fn<typeof real.setStartAtLogin>();
export const agentsPaused = vi.fn<typeof real.agentsPaused>();
export const engineSettings = vi.fn<typeof real.engineSettings>();
export const setEngineSettings = vi.fn<typeof real.setEngineSettings>();
export const dataDir = vi.fn<typeof real.dataDir>();
export const openDataDir = vi.fn<typeof real.openDataDir>();
export const about = vi.fn<typeof real.about>();
export const addDemoServer = vi.fn<typeof real.addDemoServer>();
export const ENGINE_DEFAULTS = {
  approvalTimeoutSecs: 300,
  stopStdinMs: 2000,
  stopTermMs: 3000,
  healthEverySecs: 30,
  auditRetentionDays: null,
};
export const setAgentsPaused = vi.fn<typeof real.setAgentsPaused>();
export const authStatus = vi.fn<typeof real.authStatus>();
export const signIn = vi.fn<typeof real.signIn>();
export const signOut = vi.fn<typeof real.signOut>();
export const appOpenView = vi.fn<typeof real.appOpenView>();
export const appCloseView = vi.fn<typeof real.appCloseView>(() => Promise.resolve(true));
export const appCallTool = vi.fn<typeof real.appCallTool>();
export const appReadResource = vi.fn<typeof real.appReadResource>();
export const appListResources = vi.fn<typeof real.appListResources>();
export const appListResourceTemplates = vi.fn<typeof real.appListResourceTemplates>();
export const appListTools = vi.fn<typeof real.appListTools>();
export const appCreateMessage = vi.fn<typeof real.appCreateMessage>();
export const appPlaceView = vi.fn<typeof real.appPlaceView>(() => Promise.resolve(null));
export const appPostToView = vi.fn<typeof real.appPostToView>(() => Promise.resolve(null));
export const appOpenLink = vi.fn<typeof real.appOpenLink>(() => Promise.resolve(null));
export const appDownloadFile = vi.fn<typeof real.appDownloadFile>();
export const forgetIdpSignIn = vi.fn<typeof real.forgetIdpSignIn>();
export const appSites = vi.fn<typeof real.appSites>();
export const appSiteAdd = vi.fn<typeof real.appSiteAdd>();
export const appSiteRemove = vi.fn<typeof real.appSiteRemove>();

/** The sign-in state of a server nobody signed in to. */
/** The gateway's HTTP endpoint off, as a new data directory has it. */
export const HTTP_OFF = { enabled: false, port: 47821, url: "http://127.0.0.1:47821/mcp", serving: { state: "off" as const } };

export const SIGNED_OUT = {
  signedIn: false,
  issuer: null,
  scopes: [],
  expiresAt: null,
  refreshable: false,
  grant: "authorization-code",
  idpIssuer: null,
  idpSignedIn: null,
};

/** The subscribers of one kind of event. */
function eventChannel<T>() {
  const subscribers = new Set<(event: T) => void>();
  return {
    subscribe: (onEvent: (event: T) => void): (() => void) => {
      subscribers.add(onEvent);
      return () => subscribers.delete(onEvent);
    },
    emit: (event: T): void => {
      for (const subscriber of [...subscribers]) subscriber(event);
    },
    count: () => subscribers.size,
    clear: () => subscribers.clear(),
  };
}

const statusChannel = eventChannel<ServerStatusEvent>();
const approvalsChannel = eventChannel<ApprovalsChangedEvent>();
export const subscribeApprovalsChanged = vi.fn<typeof real.subscribeApprovalsChanged>(approvalsChannel.subscribe);
const tasksChannel = eventChannel<TasksChangedEvent>();
const pausedChannel = eventChannel<AgentsPausedEvent>();
const chosenChannel = eventChannel<ApprovalChosenEvent>();
export const subscribeApprovalChosen = vi.fn<typeof real.subscribeApprovalChosen>(chosenChannel.subscribe);

/** Delivers a request chosen in the tray or on a notification, as the shell would. */
export function emitApprovalChosen(event: ApprovalChosenEvent): void {
  chosenChannel.emit(event);
}
export const subscribeAgentsPaused = vi.fn<typeof real.subscribeAgentsPaused>(pausedChannel.subscribe);

/** Delivers an agents-paused event to every current subscriber, as the engine would. */
export function emitAgentsPaused(event: AgentsPausedEvent): void {
  pausedChannel.emit(event);
}

export const subscribeServerStatus = vi.fn<typeof real.subscribeServerStatus>(statusChannel.subscribe);
export const subscribeTasksChanged = vi.fn<typeof real.subscribeTasksChanged>(tasksChannel.subscribe);
const logsChannel = eventChannel<ServerLogEvent>();
export const subscribeServerLogs = vi.fn<typeof real.subscribeServerLogs>(logsChannel.subscribe);
const trafficChannel = eventChannel<ServerTrafficEvent>();
export const subscribeServerTraffic = vi.fn<typeof real.subscribeServerTraffic>(trafficChannel.subscribe);

/** Delivers new traffic to every current subscriber, as the engine would. */
export function emitServerTraffic(event: ServerTrafficEvent): void {
  trafficChannel.emit(event);
}

/** How many server-traffic subscribers there are. */
export function trafficSubscriberCount(): number {
  return trafficChannel.count();
}
const viewMessagesChannel = eventChannel<AppViewMessagesEvent>();
export const listenAppViewMessages = vi.fn<typeof real.listenAppViewMessages>((onEvent) =>
  Promise.resolve(viewMessagesChannel.subscribe(onEvent)),
);

/** Delivers messages relayed from an app view to every listener, as the shell would. */
export function emitAppViewMessages(event: AppViewMessagesEvent): void {
  viewMessagesChannel.emit(event);
}

/** Delivers new stderr lines to every current subscriber, as the engine would. */
export function emitServerLog(event: ServerLogEvent): void {
  logsChannel.emit(event);
}

/** How many server-log subscribers there are. */
export function logsSubscriberCount(): number {
  return logsChannel.count();
}

/** Delivers a status event to every current subscriber, as the engine would. */
export function emitStatus(event: ServerStatusEvent): void {
  statusChannel.emit(event);
}

/** Delivers a tasks-changed event to every current subscriber, as the engine would. */
export function emitTasksChanged(event: TasksChangedEvent): void {
  tasksChannel.emit(event);
}

/** How many status-event subscribers there are. */
export function subscriberCount(): number {
  return statusChannel.count();
}

/** How many tasks-changed subscribers there are. */
export function tasksSubscriberCount(): number {
  return tasksChannel.count();
}

/**
 * Resets all call records; every command rejects until a test gives it a result, except the
 * lists, which are empty, and the export suggestion.
 */
export function resetFakeGatehouse(): void {
  for (const fn of [
    listServers,
    addServer,
    updateServer,
    removeServer,
    setServerEnabled,
    reconnectServer,
    listTools,
    listTasks,
    serverIcon,
    callTool,
    cancelCall,
    listResourcesPage,
    listResourceTemplatesPage,
    readResource,
    saveResourceContents,
    subscribeResource,
    unsubscribeResource,
    listPromptsPage,
    getPrompt,
    completeArgument,
    auditList,
    auditSearch,
    auditVerify,
    auditExport,
    auditExportSuggestion,
    policyRules,
    policyServers,
    policyAddRule,
    policyRemoveRule,
    policySetServerDefault,
    policySetTrustReadOnly,
    policyDefinitionHistory,
    serverLogs,
    serverTraffic,
    authStatus,
    signIn,
    signOut,
    forgetIdpSignIn,
    listApprovals,
    answerApproval,
    listGrants,
    revokeGrant,
    openExternalUrl,
    describeUrl,
    appOpenView,
    appCloseView,
    appCallTool,
    appReadResource,
    appListResources,
    appListResourceTemplates,
    appListTools,
    appCreateMessage,
    appOpenLink,
    appDownloadFile,
    appPlaceView,
    appPostToView,
    appSites,
    appSiteAdd,
    appSiteRemove,
    clientsList,
    clientsShow,
    clientsSetProfile,
    clientsAdd,
    clientsRemove,
    clientsCreateToken,
    clientsRevokeToken,
    clientsSetPrefix,
    clientsProfile,
    gatewayHttpSettings,
    gatewaySetHttp,
    agentsFound,
    importPreview,
    importApply,
    connectPreview,
    connectApply,
    connectUndo,
    startAtLogin,
    takeChosenApproval,
    setStartAtLogin,
    agentsPaused,
    setAgentsPaused,
    engineSettings,
    setEngineSettings,
    dataDir,
    openDataDir,
    about,
    addDemoServer,
  ]) {
    fn.mockReset();
  }
  agentsFound.mockResolvedValue([]);
  appCloseView.mockResolvedValue(true);
  appPlaceView.mockResolvedValue(null);
  appPostToView.mockResolvedValue(null);
  appOpenLink.mockResolvedValue(null);
  listApprovals.mockResolvedValue([]);
  answerApproval.mockResolvedValue(null);
  listGrants.mockResolvedValue([]);
  openExternalUrl.mockResolvedValue(null);
  describeUrl.mockImplementation(hostOf);
  listServers.mockResolvedValue([]);
  auditList.mockResolvedValue([]);
  auditSearch.mockResolvedValue([]);
  auditExportSuggestion.mockImplementation((format) => Promise.resolve(`~/gatehouse-audit.${format}`));
  policyRules.mockResolvedValue([]);
  policyServers.mockResolvedValue([]);
  policyDefinitionHistory.mockResolvedValue([]);
  appSites.mockResolvedValue({ allow: [], block: [] });
  listTools.mockResolvedValue([]);
  listResourcesPage.mockResolvedValue(EMPTY_PAGE);
  listResourceTemplatesPage.mockResolvedValue(EMPTY_PAGE);
  listPromptsPage.mockResolvedValue(EMPTY_PAGE);
  completeArgument.mockResolvedValue({ values: [], total: null, hasMore: false });
  unsubscribeResource.mockResolvedValue(null);
  clientsList.mockResolvedValue([]);
  gatewayHttpSettings.mockResolvedValue(HTTP_OFF);
  listTasks.mockResolvedValue([]);
  serverIcon.mockResolvedValue(null);
  serverLogs.mockResolvedValue([]);
  serverTraffic.mockResolvedValue({ entries: [], dropped: 0, lastSeq: 0 });
  subscribeServerTraffic.mockClear();
  trafficChannel.clear();
  authStatus.mockResolvedValue(SIGNED_OUT);
  subscribeServerStatus.mockClear();
  subscribeServerLogs.mockClear();
  logsChannel.clear();
  subscribeTasksChanged.mockClear();
  statusChannel.clear();
  tasksChannel.clear();
  approvalsChannel.clear();
  pausedChannel.clear();
  chosenChannel.clear();
  takeChosenApproval.mockResolvedValue(null);
  viewMessagesChannel.clear();
  startAtLogin.mockResolvedValue({ enabled: false, entry: "/home/me/.config/autostart/gatehouse.desktop" });
  agentsPaused.mockResolvedValue(false);
  engineSettings.mockResolvedValue(ENGINE_DEFAULTS);
  dataDir.mockResolvedValue("/home/me/.local/share/gatehouse");
  openDataDir.mockResolvedValue(null);
  about.mockResolvedValue({
    version: "0.1.0",
    licences: [
      { name: "serde", version: "1.0.228", licence: "MIT OR Apache-2.0", kind: "crate" },
      { name: "react", version: "19.1.0", licence: "MIT", kind: "npm" },
    ],
  });
}


/** Delivers an approvals-changed event to every current subscriber, as the engine would. */
export function emitApprovalsChanged(event: ApprovalsChangedEvent): void {
  approvalsChannel.emit(event);
}
