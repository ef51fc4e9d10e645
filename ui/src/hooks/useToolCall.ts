// One tool call from the window: starts it, follows its progress and task status, cancels it on
// request, and cancels it when the component that started it goes away. Every call that ends is
// kept in the window's call history (model/callHistory).

import { useCallback, useEffect, useRef, useState } from "react";
import * as api from "../api/gatehouse";
import type { CallEvent, CallResultView } from "../api/gatehouse";
import { errorMessage } from "../api/GatehouseError";
import { recordCall } from "../model/callHistory";
import { sentence, showToast } from "./useToast";

export type CallProgress = { progress: number | null; total: number | null; message: string | null };

/** Which call a state is about: its window call id and the arguments it was made with. */
export type CallIdentity = { callId: string; args: Record<string, unknown> };

export type ToolCallState =
  | { phase: "idle" }
  | ({ phase: "running"; progress: CallProgress | null; taskStatus: string | null; cancelling: boolean } & CallIdentity)
  | ({ phase: "done"; result: CallResultView } & CallIdentity)
  | ({ phase: "failed"; error: string } & CallIdentity);

let nextCall = 1;

/** A call id unique within this window. */
function newCallId(): string {
  const random = typeof crypto.randomUUID === "function" ? crypto.randomUUID() : String(Math.random());
  return `call-${nextCall++}-${random}`;
}

function applyEvent(state: ToolCallState, event: CallEvent): ToolCallState {
  if (state.phase !== "running") return state;
  if (event.kind === "progress") {
    const { progress, total, message } = event;
    return { ...state, progress: { progress, total, message } };
  }
  const status = event.statusMessage ? `${event.status}: ${event.statusMessage}` : event.status;
  return { ...state, taskStatus: status };
}

export function useToolCall(serverId: string, tool: string) {
  const [state, setState] = useState<ToolCallState>({ phase: "idle" });
  const current = useRef<string | null>(null);

  const cancel = useCallback(() => {
    const callId = current.current;
    if (callId === null) return;
    setState((s) => (s.phase === "running" ? { ...s, cancelling: true } : s));
    api.cancelCall(callId).catch((e: unknown) => {
      setState((s) => (s.phase === "running" && s.callId === callId ? { ...s, cancelling: false } : s));
      showToast({
        title: "Could not cancel the call",
        description: `${sentence(errorMessage(e))} It may still finish: its result shows here, and its outcome on the Audit page. Try Cancel again, or stop the server.`,
      });
    });
  }, []);

  const call = useCallback(
    (args: Record<string, unknown>) => {
      const callId = newCallId();
      current.current = callId;
      setState({ phase: "running", progress: null, taskStatus: null, cancelling: false, callId, args });
      const mine = () => current.current === callId;
      api
        .callTool(serverId, callId, tool, args, (event) => {
          if (mine()) setState((s) => applyEvent(s, event));
        })
        .then((result) => {
          recordCall({ id: callId, serverId, tool, args, at: Date.now(), outcome: { kind: "result", result } });
          if (mine()) setState({ phase: "done", result, callId, args });
        })
        .catch((e: unknown) => {
          const error = e instanceof Error ? e.message : String(e);
          recordCall({ id: callId, serverId, tool, args, at: Date.now(), outcome: { kind: "failed", error } });
          if (mine()) setState({ phase: "failed", error, callId, args });
        })
        .finally(() => {
          if (mine()) current.current = null;
        });
    },
    [serverId, tool],
  );

  // A call nobody will see the end of is cancelled.
  useEffect(() => cancel, [cancel]);

  return { state, call, cancel };
}
