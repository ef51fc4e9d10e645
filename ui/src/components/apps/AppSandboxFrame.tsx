// The sandbox proxy frame of one app view (SEP-1865 "Sandbox proxy"): an iframe on the sandbox's
// own origin (never the window's), with `allow-scripts allow-same-origin` as the spec requires of
// the proxy, and `allow` only for the permissions the person agreed to. Its session starts in a
// layout effect, in the same task as the frame's insertion, so it listens before the sandbox page
// can load and say it is ready; it is torn down (best effort) and closed when the frame goes.

import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import { buildAllowAttribute } from "@modelcontextprotocol/ext-apps/app-bridge";
import { useEffect, useEffectEvent, useLayoutEffect, useRef } from "react";
import type { RefObject } from "react";
import type { AppFrame, AppPermissions } from "../../api/gatehouse";
import type { ViewHost } from "../../apps/appRequestHandlers";
import { AppViewSession } from "../../apps/AppViewSession";
import type { ViewOutcome } from "../../apps/AppViewSession";
import { permissionObjects } from "../../model/appPermissions";

/**
 * The outer (proxy) frame's sandbox: exactly what SEP-1865 requires of it ("Sandbox proxy" 2); no
 * popups, no top navigation. The view's own frame is sandboxed further by the proxy.
 */
export const PROXY_SANDBOX = "allow-scripts allow-same-origin";

type AppSandboxFrameProps = {
  title: string;
  frame: AppFrame;
  permissions: AppPermissions;
  input: Record<string, unknown>;
  outcome: ViewOutcome;
  context: McpUiHostContext;
  host: ViewHost;
  onReady: () => void;
  /** Set to the live session while the frame is shown, for the panel's teardown. */
  sessionRef: RefObject<AppViewSession | null>;
};

export function AppSandboxFrame(props: AppSandboxFrameProps) {
  const { title, frame, permissions, input, outcome, context, host, sessionRef } = props;
  const frameRef = useRef<HTMLIFrameElement>(null);

  // The session lives as long as the frame; these see the panel's latest state when called.
  const confirmOpenLink = useEffectEvent(host.confirmOpenLink);
  const confirmDownload = useEffectEvent(host.confirmDownload);
  const requestDisplayMode = useEffectEvent(host.requestDisplayMode);
  const sizeChanged = useEffectEvent(host.sizeChanged);
  const note = useEffectEvent(host.note);
  const requestTeardown = useEffectEvent(host.requestTeardown);
  const onReady = useEffectEvent(props.onReady);
  const initialContext = useEffectEvent(() => context);

  useLayoutEffect(() => {
    const iframe = frameRef.current;
    const frameWindow = iframe?.contentWindow;
    if (iframe === null || frameWindow === null || frameWindow === undefined) return;
    const session = new AppViewSession({
      frame,
      frameWindow,
      permissions,
      hostContext: initialContext(),
      input,
      outcome,
      host: {
        confirmOpenLink: (url) => confirmOpenLink(url),
        confirmDownload: (contents) => confirmDownload(contents),
        requestDisplayMode: (mode, appModes) => requestDisplayMode(mode, appModes),
        sizeChanged: (size) => sizeChanged(size),
        note: (n) => note(n),
        requestTeardown: () => requestTeardown(),
      },
      onReady: () => onReady(),
    });
    sessionRef.current = session;
    session.start().catch((e: unknown) => console.warn("Gatehouse: could not connect to the app frame", e));
    return () => {
      if (sessionRef.current === session) sessionRef.current = null;
      // The panel normally tore the view down already; this covers a panel that just vanished.
      void session.teardown("The app was closed.").finally(() => void session.close());
    };
  }, [frame, permissions, input, outcome, sessionRef]);

  useEffect(() => {
    sessionRef.current?.updateContext(context);
  }, [context, sessionRef]);

  const allow = buildAllowAttribute(permissionObjects(permissions));
  return (
    <iframe
      ref={frameRef}
      className="app-frame"
      data-testid="app-frame"
      src={frame.sandboxUrl}
      title={title}
      sandbox={PROXY_SANDBOX}
      {...(allow !== "" && { allow })}
      referrerPolicy="no-referrer"
    />
  );
}
