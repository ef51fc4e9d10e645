// A stand-in for an app view's proxy page, which runs in a webview of its own (jsdom has none):
// what the host sends it (`app_post_to_view`) is recorded, and messages "from" it are delivered
// as the shell relays them (an `AppViewMessagesEvent` naming the view).

import { vi } from "vitest";
import type { AppFrame, AppPermissions, AppViewMessagesEvent } from "../api/gatehouse";
import * as fake from "./fakeGatehouse";

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

type AppViewMessage = AppViewMessagesEvent["messages"][number];

type Sent = { message: Record<string, unknown> };

export type FakeSandbox = ReturnType<typeof fakeSandbox>;

/** The proxy page of the view `sandboxUrl` (the default frame's unless told otherwise). */
export function fakeSandbox(sandboxUrl = makeAppFrame().sandboxUrl) {
  const sent: Sent[] = [];
  fake.appPostToView.mockImplementation((view, message) => {
    if (view === sandboxUrl) sent.push({ message: message as Record<string, unknown> });
    return Promise.resolve(null);
  });
  let nextId = 1000;

  /** Relays `data` as a message of the view `from` (this one unless told otherwise). */
  const post = (data: unknown, from = sandboxUrl) => {
    fake.emitAppViewMessages({ view: from, messages: [data as AppViewMessage] });
  };

  /** The messages sent to the frame, by method (notifications and requests). */
  const methods = () => sent.map((s) => s.message.method).filter((m): m is string => typeof m === "string");

  /** Sends a request as the view and waits for the host's answer. */
  const request = async (method: string, params: unknown, from = sandboxUrl) => {
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

  const notify = (method: string, params: unknown = {}, from = sandboxUrl) =>
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

