// One rendered view, from the sandbox proxy's handshake to teardown (SEP-1865 "Lifecycle"), over
// the relay to the view's own webview (RelayTransport), on the SDK's AppBridge:
// answers `sandbox-proxy-ready` with `sandbox-resource-ready` (the resource's HTML, its CSP
// domains, the permissions the person agreed to and the view's iframe sandbox), lets the AppBridge
// answer `ui/initialize` with the host's info, capabilities and context, and sends the view
// nothing until it says `ui/notifications/initialized`; then the tool's input and its result, or
// `tool-cancelled` for a call that was cancelled or failed. Host-context changes made before that
// are held (ViewBridge) and sent once it is initialized. Whoever creates a session closes it.

import type { McpUiHostCapabilities, McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { AppFrame, AppPermissions } from "../api/gatehouse";
import { permissionObjects } from "../model/appPermissions";
import { installRequestHandlers } from "./appRequestHandlers";
import type { ViewHost } from "./appRequestHandlers";
import { RelayTransport } from "./RelayTransport";
import { ViewBridge } from "./ViewBridge";

export const HOST_INFO = { name: "Gatehouse", version: "0.1.0" };

/**
 * The inner frame's sandbox, asked of the proxy: scripts and forms, never `allow-same-origin`
 * (the app's document must not share the proxy's origin), popups or top navigation.
 */
export const VIEW_SANDBOX = "allow-scripts allow-forms";

/** How long a view gets to answer `ui/resource-teardown` before it is removed anyway (ms). */
export const TEARDOWN_TIMEOUT_MS = 3000;

/** How the tool call the view belongs to ended. */
export type ViewOutcome = { kind: "result"; result: CallToolResult } | { kind: "cancelled"; reason: string };

export type ViewSessionOptions = {
  /** The open view: what it asks for goes to its own server, through its sandbox URL. */
  frame: AppFrame;
  /** The permissions the person agreed to (a subset of what the resource declares). */
  permissions: AppPermissions;
  hostContext: McpUiHostContext;
  input: Record<string, unknown>;
  outcome: ViewOutcome;
  host: ViewHost;
  /** The view said `initialized`. */
  onReady: () => void;
};

/** Only the host capabilities Gatehouse handles (see appRequestHandlers). */
export function hostCapabilities(frame: AppFrame, permissions: AppPermissions): McpUiHostCapabilities {
  return {
    openLinks: {},
    downloadFile: {},
    serverTools: {},
    serverResources: {},
    logging: {},
    message: { text: {}, structuredContent: {} },
    updateModelContext: { text: {}, structuredContent: {} },
    sampling: {},
    sandbox: { permissions: permissionObjects(permissions), csp: frame.csp },
  };
}

export class AppViewSession {
  private readonly bridge: ViewBridge;
  private readonly options: ViewSessionOptions;
  private initialized = false;
  private tornDown = false;
  private closed = false;

  constructor(options: ViewSessionOptions) {
    this.options = options;
    const { frame, permissions, hostContext, host } = options;
    this.bridge = new ViewBridge(null, HOST_INFO, hostCapabilities(frame, permissions), { hostContext });
    installRequestHandlers(this.bridge, frame, host);
    // A reloaded proxy says ready again, and gets the resource again.
    this.bridge.addEventListener("sandboxready", () => {
      this.bridge
        .sendSandboxResourceReady({
          html: frame.html,
          sandbox: VIEW_SANDBOX,
          csp: frame.csp,
          permissions: permissionObjects(permissions),
        })
        .catch((e: unknown) => console.warn("Gatehouse: could not send the app to its sandbox", e));
    });
    this.bridge.addEventListener("initialized", () => this.onInitialized());
  }

  /** Starts listening to the view's proxy page; place the view (create its webview) after this. */
  async start(): Promise<void> {
    await this.bridge.connect(new RelayTransport(this.options.frame.sandboxUrl));
  }

  /** Whether the view has said `initialized`. */
  get ready(): boolean {
    return this.initialized;
  }

  /** The display modes the view declared in `ui/initialize` (undefined: none declared, or not yet). */
  get appDisplayModes() {
    return this.bridge.getAppCapabilities()?.availableDisplayModes;
  }

  /** The host context now: answers `ui/initialize`, and goes to the view as a change once it is initialized. */
  updateContext(context: McpUiHostContext): void {
    if (!this.closed) this.bridge.setHostContext(context);
  }

  /**
   * Asks the view to finish (`ui/resource-teardown`) and waits for its answer, at most
   * `timeoutMs`. Asked once: later calls return at once. A view that never said `initialized`
   * is sent nothing.
   */
  async teardown(reason: string, timeoutMs = TEARDOWN_TIMEOUT_MS): Promise<void> {
    if (!this.initialized || this.closed || this.tornDown) return;
    this.tornDown = true;
    try {
      await this.bridge.teardownResource({ reason }, { timeout: timeoutMs });
    } catch (e) {
      console.warn("Gatehouse: the app did not finish its teardown", e);
    }
  }

  /** Stops listening; the frame can go. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.bridge.close();
  }

  private onInitialized(): void {
    if (this.initialized || this.closed) return;
    this.initialized = true;
    const { input, outcome, onReady } = this.options;
    const send = async () => {
      await this.bridge.openToView();
      await this.bridge.sendToolInput({ arguments: input });
      if (outcome.kind === "result") await this.bridge.sendToolResult(outcome.result);
      else await this.bridge.sendToolCancelled({ reason: outcome.reason });
    };
    send().catch((e: unknown) => console.warn("Gatehouse: could not send the tool call to the app", e));
    onReady();
  }
}
