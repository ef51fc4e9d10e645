// Where one app view shows in its panel. The view runs in a webview of its own (SEP-1865
// "Sandbox proxy": the proxy page on the sandbox's own origin, the view in its frame), which holds
// no Tauri capability, laid by the shell over this element's area (useViewPlacement). The element
// is `data-testid="app-frame"` and carries the view's `data-sandbox-url`. The session starts in a
// layout effect; the view is placed (its webview created) only once the window listens to what
// it relays, so the proxy's ready message cannot be missed. When the element goes, the session is
// torn down (best effort) and closed.

import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import { useEffect, useEffectEvent, useLayoutEffect, useState } from "react";
import type { RefObject } from "react";
import type { AppFrame, AppPermissions } from "../../api/gatehouse";
import type { ViewHost } from "../../apps/appRequestHandlers";
import { AppViewSession } from "../../apps/AppViewSession";
import type { ViewOutcome } from "../../apps/AppViewSession";
import { useViewPlacement } from "../../hooks/useViewPlacement";
import { errorMessage } from "../../api/GatehouseError";
import { sentence, showToast } from "../../hooks/useToast";

type AppSandboxFrameProps = {
  title: string;
  frame: AppFrame;
  permissions: AppPermissions;
  input: Record<string, unknown>;
  outcome: ViewOutcome;
  context: McpUiHostContext;
  host: ViewHost;
  /** The panel covers the window (the view then also covers the window's header). */
  fullscreen: boolean;
  onReady: () => void;
  /** Set to the live session while the frame is shown, for the panel's teardown. */
  sessionRef: RefObject<AppViewSession | null>;
};

export function AppSandboxFrame(props: AppSandboxFrameProps) {
  const { title, frame, permissions, input, outcome, context, host, fullscreen, sessionRef } = props;
  const [area, setArea] = useState<HTMLDivElement | null>(null);
  const [listening, setListening] = useState(false);

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
    const session = new AppViewSession({
      frame,
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
    let live = true;
    session
      .start()
      .then(() => {
        if (live) setListening(true);
      })
      .catch((e: unknown) =>
        showToast({
          title: "Could not connect to the app",
          description: `${sentence(errorMessage(e))} The tool's result is shown without its app; call the tool again to retry.`,
        }),
      );
    return () => {
      live = false;
      setListening(false);
      if (sessionRef.current === session) sessionRef.current = null;
      // The panel normally tore the view down already; this covers a panel that just vanished.
      void session.teardown("The app was closed.").finally(() => void session.close());
    };
  }, [frame, permissions, input, outcome, sessionRef]);

  useEffect(() => {
    sessionRef.current?.updateContext(context);
  }, [context, sessionRef]);

  useViewPlacement(area, frame.sandboxUrl, { active: listening, fullscreen });

  return (
    <div
      ref={setArea}
      className="app-frame"
      data-testid="app-frame"
      data-sandbox-url={frame.sandboxUrl}
      aria-label={title}
      role="region"
    />
  );
}
