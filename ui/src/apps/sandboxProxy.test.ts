// The sandbox proxy script the shell serves (src-tauri/sandbox/sandbox.js), run as it is in a
// small stand-in of its page (the top document of the view's own webview): what it relays to
// the host is only its own ready notification and the view's messages, unchanged and in order
// (SEP-1865 `security/sandbox-no-self-requests`), as POSTs to the relay; what it relays to the
// view is only what the shell hands it through `__gatehouseSandbox.fromHost`.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

const RELAY = "/relay?view=abc";
const SCRIPT = readFileSync(resolve(process.cwd(), "../src-tauri/sandbox/sandbox.js"), "utf8")
  .replace('"__RELAY_URL__"', JSON.stringify(RELAY))
  .replace('"__VIEW_POLICY__"', JSON.stringify("default-src 'none'"));

type Posted = {
  data: unknown;
  target: string;
};

type Listener = (event: { data: unknown; origin: string; source: unknown }) => void;

type Sandbox = {
  fromHost: (message: unknown) => void;
  layout: (area: unknown) => void;
};

// Runs the proxy with a relay that records what it is sent (one request at a time, as the
// script sends them); the view frame it creates records what it is sent too.
function startProxy() {
  const relayed: unknown[][] = [];
  const requests: { url: string; method: string }[] = [];
  let release: (() => void) | null = null;
  const toView: Posted[] = [];
  const viewWindow = { postMessage: (data: unknown, target: string) => toView.push({ data, target }) };
  const frames: { attributes: Record<string, string>; style: Record<string, string> }[] = [];
  let listener: Listener | null = null;
  const window: Record<string, unknown> = {
    addEventListener: (type: string, handler: Listener) => {
      if (type === "message") listener = handler;
    },
  };
  const fetch = (url: string, init: { method: string; body: string }) => {
    requests.push({ url, method: init.method });
    relayed.push(JSON.parse(init.body) as unknown[]);
    return new Promise((done) => {
      release = () => done({ ok: true, status: 204 });
    });
  };
  const document = {
    documentElement: { style: {} },
    body: { style: {}, appendChild: (frame: (typeof frames)[number]) => frames.push(frame) },
    createElement: () => {
      const attributes: Record<string, string> = {};
      return {
        attributes,
        style: {},
        contentWindow: viewWindow,
        setAttribute: (name: string, value: string) => (attributes[name] = value),
        addEventListener: () => undefined,
        remove: () => undefined,
      };
    },
  };
  runInNewContext(SCRIPT, { window, document, fetch, console });
  const sandbox = window.__gatehouseSandbox as Sandbox;
  const deliver = (data: unknown, source: unknown) => listener?.({ data, origin: "null", source });
  /** Lets the relay answer the request that is out, and the script send the next one. */
  const answer = async () => {
    const done = release;
    release = null;
    done?.();
    await new Promise((r) => setTimeout(r, 0));
  };
  return {
    relayed,
    requests,
    answer,
    toView,
    frames,
    sandbox,
    fromHost: (data: unknown) => sandbox.fromHost(data),
    fromView: (data: unknown) => deliver(data, viewWindow),
    fromElsewhere: (data: unknown) => deliver(data, {}),
  };
}

const resourceReady = {
  jsonrpc: "2.0",
  method: "ui/notifications/sandbox-resource-ready",
  params: { html: "<p>view</p>", sandbox: "allow-scripts allow-same-origin allow-top-navigation" },
};

describe("the sandbox proxy", () => {
  it("says nothing of its own to the host but that it is ready", async () => {
    const proxy = startProxy();
    expect(proxy.relayed).toEqual([[{ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }]]);
    expect(proxy.requests).toEqual([{ url: RELAY, method: "POST" }]);
    await proxy.answer();
    proxy.fromHost(resourceReady);
    proxy.fromHost({ jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} });
    proxy.fromHost({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [] } });
    proxy.fromHost({ jsonrpc: "2.0", id: 2, result: {} });
    await proxy.answer();
    // Still only the ready notification: the proxy answers nothing and asks nothing itself.
    expect(proxy.relayed).toHaveLength(1);
  });

  it("relays the view's messages to the relay, unchanged, in order, and nothing else", async () => {
    const proxy = startProxy();
    proxy.fromHost(resourceReady);
    const request = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "poll" } };
    const answer = { jsonrpc: "2.0", id: 3, result: { ok: true } };
    const later = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } };
    // The ready notification is still out: these wait, and go together, in order, after it.
    proxy.fromView(request);
    proxy.fromView(answer);
    proxy.fromView({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} });
    proxy.fromView("not JSON-RPC");
    proxy.fromView({ id: 9, method: "tools/call" });
    proxy.fromElsewhere({ jsonrpc: "2.0", id: 8, method: "tools/call", params: {} });
    expect(proxy.relayed, "one request at a time").toHaveLength(1);
    await proxy.answer();
    expect(proxy.relayed.slice(1)).toEqual([[request, answer]]);
    proxy.fromView(later);
    await proxy.answer();
    expect(proxy.relayed.slice(2)).toEqual([[later]]);
  });

  it("relays only what the shell hands it to the view", () => {
    const proxy = startProxy();
    const early = { jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} };
    proxy.fromHost(early);
    expect(proxy.toView).toEqual([]);
    proxy.fromHost(resourceReady);
    const result = { jsonrpc: "2.0", id: 4, result: { content: [] } };
    proxy.fromHost(result);
    proxy.fromHost("not a message");
    proxy.fromHost({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: resourceReady.params });
    proxy.fromElsewhere({ jsonrpc: "2.0", id: 6, method: "ping" });
    expect(proxy.toView).toEqual([{ data: result, target: "*" }]);
    // One view frame, whatever was asked for: never same-origin or top navigation.
    expect(proxy.frames).toHaveLength(1);
    expect(proxy.frames[0]?.attributes.sandbox).toBe("allow-scripts");
  });

  it("shows the part of the view the window shows, and cannot be replaced by the view", () => {
    const proxy = startProxy();
    proxy.fromHost(resourceReady);
    proxy.sandbox.layout({ width: 600, height: 400, left: 0, top: 150 });
    expect(proxy.frames[0]?.style).toMatchObject({ position: "absolute", width: "600px", height: "400px", left: "0px", top: "-150px" });
    expect(Object.isFrozen(proxy.sandbox), "its functions cannot be swapped").toBe(true);
  });
});
