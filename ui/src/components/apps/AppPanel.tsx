// The panel of one app view below a tool call's result (SEP-1865 MCP Apps): opens the tool's UI
// resource, asks for the permissions it declares, shows it in its sandbox frame (inline with a
// bounded, resizable height, or fullscreen), lists what it sends for the conversation, asks the
// person before its links open or its files are saved, and on close tears the view down
// (waiting, bounded, for its answer) before the frame goes.
//
// It uses `useAppFrame` (each panel owns its view: `app_open_view` when it appears,
// `app_close_view` when it goes), `AppPermissionPrompt`, `AppNotes` (at most `MAX_NOTES`, 50) and
// the link and download dialogs through `useConfirmation`. Inline, the height follows the view's
// `size-changed` between 80 and 600 px and the person can drag it taller; fullscreen covers the
// window under its dialogs, is left with Escape (unless a dialog is open) or the button, and the
// button is disabled when the view's `availableDisplayModes` leaves it out
// (`model/appDisplayMode`). A view that does not say `initialized` within `START_TIMEOUT_MS`
// (30 s) puts the panel in the error state; `data-app-state` is `loading`, `ready` or `error`.

import type { McpUiDisplayMode } from "@modelcontextprotocol/ext-apps/app-bridge";
import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import type { AppPermissions, ToolInfo } from "../../api/gatehouse";
import type { AppNote, ViewHost } from "../../apps/appRequestHandlers";
import type { AppViewSession, ViewOutcome } from "../../apps/AppViewSession";
import { useAppFrame } from "../../hooks/useAppFrame";
import { useAppHostContext } from "../../hooks/useAppHostContext";
import { useConfirmation } from "../../hooks/useConfirmation";
import { answerDisplayModeRequest, viewAllows } from "../../model/appDisplayMode";
import { inlineHeight } from "../../model/appHostContext";
import { declaredPermissions } from "../../model/appPermissions";
import { capText, MAX_NAME_CHARS } from "../../model/capText";
import { AppDownloadDialog } from "./AppDownloadDialog";
import type { DownloadContents } from "./AppDownloadDialog";
import { AppLinkDialog } from "./AppLinkDialog";
import { AppNotes } from "./AppNotes";
import { AppDomainsNotice } from "./AppDomainsNotice";
import { AppPermissionPrompt } from "./AppPermissionPrompt";
import { AppSandboxFrame } from "./AppSandboxFrame";

/** The most notes a panel keeps (older ones are counted, not kept). */
export const MAX_NOTES = 50;
/** How long a shown view gets to say `initialized` before the panel says it did not start (ms). */
export const START_TIMEOUT_MS = 30_000;
/** The inline height until the view reports its own (px). */
const DEFAULT_INLINE_HEIGHT = 320;

const NO_PERMISSIONS: AppPermissions = { camera: false, microphone: false, geolocation: false, clipboardWrite: false };

/** The call a view shows: its arguments and how it ended. */
export type AppCall = { input: Record<string, unknown>; outcome: ViewOutcome };

type AppPanelProps = {
  serverId: string;
  tool: ToolInfo;
  uri: string;
  call: AppCall;
  /** Another call took its place: tear down quietly (the panel is hidden meanwhile). */
  retiring?: boolean;
  /** The view is torn down; the caller removes the panel. */
  onClosed: () => void;
  startTimeoutMs?: number;
};

export function AppPanel(props: AppPanelProps) {
  const { serverId, tool, uri, call, retiring = false, onClosed, startTimeoutMs = START_TIMEOUT_MS } = props;
  const view = useAppFrame(serverId, uri);
  const [agreed, setAgreed] = useState<AppPermissions | null>(null);
  const [ready, setReady] = useState(false);
  const [appModes, setAppModes] = useState<McpUiDisplayMode[] | undefined>(undefined);
  const [displayMode, setDisplayMode] = useState<McpUiDisplayMode>("inline");
  const [height, setHeight] = useState(DEFAULT_INLINE_HEIGHT);
  const [notes, setNotes] = useState<{ kept: AppNote[]; dropped: number }>({ kept: [], dropped: 0 });
  const [closing, setClosing] = useState(false);
  const [stalled, setStalled] = useState(false);
  const sessionRef = useRef<AppViewSession | null>(null);
  // State, not a ref: the body appears only once the view is open, and is measured from then on.
  const [body, setBody] = useState<HTMLDivElement | null>(null);
  const link = useConfirmation<string>();
  const download = useConfirmation<DownloadContents>();
  const context = useAppHostContext(tool, displayMode, body);

  const fullscreen = displayMode === "fullscreen";
  const permissions =
    view.status === "open" && declaredPermissions(view.frame.permissions).length === 0 ? NO_PERMISSIONS : agreed;

  // A view that never says initialized (its script failed, or it navigated its frame away)
  // leaves the panel in the error state rather than loading for ever.
  const frameShown = view.status === "open" && permissions !== null;
  useEffect(() => {
    if (!frameShown || ready) return;
    const timer = setTimeout(() => setStalled(true), startTimeoutMs);
    return () => clearTimeout(timer);
  }, [frameShown, ready, startTimeoutMs]);

  const close = useCallback(
    async (reason: string) => {
      if (closing) return;
      setClosing(true);
      await sessionRef.current?.teardown(reason);
      onClosed();
    },
    [closing, onClosed],
  );

  // A replaced view is torn down while hidden, then removed.
  const retired = useEffectEvent(onClosed);
  useEffect(() => {
    if (!retiring) return;
    void Promise.resolve(sessionRef.current?.teardown("Another call of the tool replaced this view.")).then(() => retired());
  }, [retiring]);

  // Escape leaves fullscreen (the button does too), unless it is closing a dialog over it.
  useEffect(() => {
    if (!fullscreen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || document.querySelector('[role="dialog"], [role="alertdialog"]') !== null) return;
      setDisplayMode("inline");
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [fullscreen]);

  const host: ViewHost = {
    confirmOpenLink: link.ask,
    confirmDownload: download.ask,
    requestDisplayMode: (mode, modes) => {
      const next = answerDisplayModeRequest(mode, displayMode, modes);
      setDisplayMode(next);
      return next;
    },
    sizeChanged: ({ height: reported }) => {
      if (reported !== undefined) setHeight(inlineHeight(reported));
    },
    note: (note) =>
      setNotes(({ kept, dropped }) => {
        const all = [...kept, note];
        if (all.length <= MAX_NOTES) return { kept: all, dropped };
        console.info(`Gatehouse: app ${uri} sent more than ${MAX_NOTES} messages; the oldest are dropped`);
        return { kept: all.slice(-MAX_NOTES), dropped: dropped + all.length - MAX_NOTES };
      }),
    requestTeardown: () => void close("The app asked to close."),
  };

  const onReady = () => {
    setReady(true);
    setAppModes(sessionRef.current?.appDisplayModes);
  };

  const state = view.status === "error" || (stalled && !ready) ? "error" : ready ? "ready" : "loading";
  const bordered = view.status !== "open" || view.frame.prefersBorder !== false;
  const canFullscreen = viewAllows("fullscreen", appModes);
  const classes = ["app-panel", bordered ? "app-panel-bordered" : "", fullscreen ? "app-panel-fullscreen" : ""];
  return (
    <section
      className={classes.filter(Boolean).join(" ")}
      data-testid="app-panel"
      data-app-uri={uri}
      data-app-state={state}
      aria-label={`App of ${tool.name}`}
      hidden={retiring}
    >
      <header className="app-panel-head">
        <span className="app-panel-title" title={uri}>
          App <code>{capText(uri, MAX_NAME_CHARS)}</code>
        </span>
        <button
          type="button"
          className="button button-small"
          data-testid="app-fullscreen"
          aria-pressed={fullscreen}
          disabled={!fullscreen && !canFullscreen}
          onClick={() => setDisplayMode(fullscreen ? "inline" : "fullscreen")}
        >
          {fullscreen ? "Exit fullscreen" : "Fullscreen"}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="app-close"
          disabled={closing}
          onClick={() => void close("The person closed the app.")}
        >
          {closing ? "Closing…" : "Close"}
        </button>
      </header>
      {view.status === "loading" && <p className="muted">Loading the app…</p>}
      {view.status === "error" && (
        <p className="form-error" role="alert" data-testid="app-error">
          The app could not be shown: {view.message}
        </p>
      )}
      {stalled && !ready && (
        <p className="form-error" role="alert" data-testid="app-error">
          The app did not start within {Math.round(startTimeoutMs / 1000)} seconds.
        </p>
      )}
      {view.status === "open" && <AppDomainsNotice csp={view.frame.csp} withheld={view.frame.withheld} refused={view.frame.refused} />}
      {view.status === "open" && permissions === null && (
        <AppPermissionPrompt declared={view.frame.permissions} onAnswer={setAgreed} />
      )}
      {view.status === "open" && permissions !== null && (
        <div
          ref={setBody}
          className="app-panel-body"
          style={fullscreen ? undefined : { height }}
          data-testid="app-panel-body"
        >
          <AppSandboxFrame
            title={`App of ${tool.name}`}
            frame={view.frame}
            permissions={permissions}
            input={call.input}
            outcome={call.outcome}
            context={context}
            host={host}
            fullscreen={fullscreen}
            onReady={onReady}
            sessionRef={sessionRef}
          />
        </div>
      )}
      <AppNotes notes={notes.kept} dropped={notes.dropped} />
      {link.subject !== null && <AppLinkDialog url={link.subject} onAnswer={link.answer} />}
      {download.subject !== null && <AppDownloadDialog contents={download.subject} onAnswer={download.answer} />}
    </section>
  );
}
