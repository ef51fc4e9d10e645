// A stand-in for the sandbox proxy frame in jsdom (which cannot load a cross-origin page): a real
// jsdom iframe window whose postMessage is captured, and messages "from" it dispatched on the
// window with the origin of our choosing, as the browser would deliver them.

import { vi } from "vitest";
import type { AppFrame, AppPermissions } from "../api/gatehouse";

export const SANDBOX_ORIGIN = "gatehouse-app://localhost";

export const NO_PERMISSIONS: AppPermissions = { camera: false, microphone: false, geolocation: false, clipboardWrite: false };

/** A view as `app_open_view` answers it: open as token `t1`, no domains, no permissions, unless told otherwise. */
export function makeAppFrame(extra: Partial<AppFrame> = {}): AppFrame {
  return {
    sandboxUrl: `${SANDBOX_ORIGIN}/sandbox?view=t1`,
    sandboxOrigin: SANDBOX_ORIGIN,
    uri: "ui://fixture/app.html",
    html: "<!doctype html><p>app</p>",
    csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
    policy: "default-src 'none'",
    permissions: NO_PERMISSIONS,
    prefersBorder: null,
    domain: null,
    withheld: [],
    refused: [],
    ...extra,
  };
}

/** A JSON-RPC answer as the view receives it. */
export type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

type Sent = { message: Record<string, unknown>; targetOrigin: string };

export type FakeSandbox = ReturnType<typeof fakeSandbox>;

/** Wraps `frameWindow` (an iframe's contentWindow, attached to the document). */
export function fakeSandbox(frameWindow: Window, origin = SANDBOX_ORIGIN) {
  const sent: Sent[] = [];
  vi.spyOn(frameWindow, "postMessage").mockImplementation((message: unknown, target?: unknown) => {
    sent.push({ message: message as Record<string, unknown>, targetOrigin: typeof target === "string" ? target : "" });
  });
  let nextId = 1000;

  const post = (data: unknown, from = origin) => {
    window.dispatchEvent(new MessageEvent("message", { data, origin: from, source: frameWindow }));
  };

  /** The messages sent to the frame, by method (notifications and requests). */
  const methods = () => sent.map((s) => s.message.method).filter((m): m is string => typeof m === "string");

  /** Sends a request as the view and waits for the host's answer. */
  const request = async (method: string, params: unknown, from = origin) => {
    const id = nextId++;
    post({ jsonrpc: "2.0", id, method, params }, from);
    return vi.waitFor<Answer>(
      () => {
        const answer = sent.find((s) => s.message.id === id && !("method" in s.message));
        if (answer === undefined) throw new Error(`no answer to ${method} yet`);
        return answer.message;
      },
      { timeout: 2000 },
    );
  };

  const notify = (method: string, params: unknown = {}, from = origin) =>
    post({ jsonrpc: "2.0", method, params }, from);

  /** The proxy's handshake and the view's ui/initialize + initialized, as a real view does them. */
  const initialize = async (appCapabilities: Record<string, unknown> = {}) => {
    notify("ui/notifications/sandbox-proxy-ready");
    const answer = await request("ui/initialize", {
      protocolVersion: "2026-01-26",
      appInfo: { name: "fixture-view", version: "1.0.0" },
      appCapabilities,
    });
    notify("ui/notifications/initialized");
    // The bridge handles a notification asynchronously; let it before the view goes on.
    await new Promise((resolve) => setTimeout(resolve, 10));
    return answer;
  };

  return { sent, post, methods, request, notify, initialize };
}

/** A jsdom iframe attached to the document, for a session to talk to. */
export function attachedFrameWindow(): Window {
  const iframe = document.createElement("iframe");
  document.body.append(iframe);
  const win = iframe.contentWindow;
  if (win === null) throw new Error("jsdom gave the iframe no window");
  return win;
}
