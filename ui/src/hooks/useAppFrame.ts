// Opens the view of a tool's UI resource (`app_open_view`: the resource read through the gate,
// and a sandbox page for it on its own origin) when a panel appears, and forgets it
// (`app_close_view`) when the panel goes. Not a cached query: every panel owns its own view, and
// a panel is made for one server and URI (the caller keys it).

import { useEffect, useState } from "react";
import * as api from "../api/gatehouse";
import type { AppFrame } from "../api/gatehouse";
import { errorMessage } from "../api/GatehouseError";
import { sentence, showToast } from "./useToast";

export type AppFrameState =
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "open"; frame: AppFrame };

export function useAppFrame(serverId: string, uri: string): AppFrameState {
  const [state, setState] = useState<AppFrameState>({ status: "loading" });

  useEffect(() => {
    let gone = false;
    let opened: AppFrame | null = null;
    api
      .appOpenView(serverId, uri)
      .then((frame) => {
        opened = frame;
        if (gone) forget(frame);
        else setState({ status: "open", frame });
      })
      .catch((e: unknown) => {
        if (!gone) setState({ status: "error", message: errorMessage(e) });
      });
    return () => {
      gone = true;
      if (opened !== null) forget(opened);
    };
  }, [serverId, uri]);

  return state;
}

function forget(frame: AppFrame): void {
  api.appCloseView(frame.sandboxUrl).catch((e: unknown) =>
    showToast({
      title: "Could not close an app view",
      description: `${sentence(errorMessage(e))} It is closed with the window; reopen the window if it still shows.`,
    }),
  );
}
