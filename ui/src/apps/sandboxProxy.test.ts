// The sandbox proxy script the shell serves (src-tauri/sandbox/sandbox.js), run as it is in a
// small stand-in of its page: what it says to the host is only its own ready notification and
// the view's messages, unchanged (SEP-1865 `security/sandbox-no-self-requests`), and what it
// relays to the view is only the host's messages, from the exact host origin.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

const HOST_ORIGIN = "tauri://localhost";
const SCRIPT = readFileSync(resolve(process.cwd(), "../src-tauri/sandbox/sandbox.js"), "utf8")
  .replace("__HOST_ORIGIN__", HOST_ORIGIN)
  .replace("__VIEW_POLICY__", "default-src 'none'");

type Posted = {
  data: unknown;
  target: string;
}

type Listener = (event: { data: unknown; origin: string; source: unknown }) => void;

// Runs the proxy with a parent that records what it is sent; the view frame it creates
// records what it is sent too.
function startProxy() {
  const toHost: Posted[] = [];
  const toView: Posted[] = [];
  const host = { postMessage: (data: unknown, target: string) => toHost.push({ data, target }) };
  const viewWindow = { postMessage: (data: unknown, target: string) => toView.push({ data, target }) };
  const frames: Record<string, unknown>[] = [];
  let listener: Listener | null = null;
  const style = () => ({}) as Record<string, string>;
  const window = {
    parent: host,
    addEventListener: (type: string, handler: Listener) => {
      if (type === "message") listener = handler;
    },
  };
  const document = {
    documentElement: { style: style() },
    body: { style: style(), appendChild: (frame: Record<string, unknown>) => frames.push(frame) },
    createElement: () => {
      const attributes: Record<string, string> = {};
      return {
        attributes,
        style: style(),
        contentWindow: viewWindow,
        setAttribute: (name: string, value: string) => (attributes[name] = value),
        addEventListener: () => undefined,
        remove: () => undefined,
      };
    },
  };
  runInNewContext(SCRIPT, { window, document });
  const deliver = (data: unknown, origin: string, source: unknown) => listener?.({ data, origin, source });
  return {
    toHost,
    toView,
    frames,
    fromHost: (data: unknown, origin = HOST_ORIGIN) => deliver(data, origin, host),
    fromView: (data: unknown) => deliver(data, "null", viewWindow),
    fromElsewhere: (data: unknown) => deliver(data, HOST_ORIGIN, {}),
  };
}

const resourceReady = {
  jsonrpc: "2.0",
  method: "ui/notifications/sandbox-resource-ready",
  params: { html: "<p>view</p>", sandbox: "allow-scripts allow-same-origin allow-top-navigation" },
};

describe("the sandbox proxy", () => {
  it("says nothing of its own to the host but that it is ready", () => {
    const proxy = startProxy();
    expect(proxy.toHost).toEqual([
      { data: { jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, target: HOST_ORIGIN },
    ]);
    proxy.fromHost(resourceReady);
    proxy.fromHost({ jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} });
    proxy.fromHost({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [] } });
    proxy.fromHost({ jsonrpc: "2.0", id: 2, result: {} });
    // Still only the ready notification: the proxy answers nothing and asks nothing itself.
    expect(proxy.toHost).toHaveLength(1);
  });

  it("relays the view's messages to the exact host origin, unchanged, and nothing else", () => {
    const proxy = startProxy();
    proxy.fromHost(resourceReady);
    const request = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "poll" } };
    const answer = { jsonrpc: "2.0", id: 3, result: { ok: true } };
    proxy.fromView(request);
    proxy.fromView(answer);
    proxy.fromView({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} });
    proxy.fromView("not JSON-RPC");
    proxy.fromView({ id: 9, method: "tools/call" });
    proxy.fromElsewhere({ jsonrpc: "2.0", id: 8, method: "tools/call", params: {} });
    expect(proxy.toHost.slice(1)).toEqual([
      { data: request, target: HOST_ORIGIN },
      { data: answer, target: HOST_ORIGIN },
    ]);
  });

  it("relays only the host's messages to the view, from the exact host origin", () => {
    const proxy = startProxy();
    const early = { jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} };
    proxy.fromHost(early);
    expect(proxy.toView).toEqual([]);
    proxy.fromHost(resourceReady);
    const result = { jsonrpc: "2.0", id: 4, result: { content: [] } };
    proxy.fromHost(result);
    proxy.fromHost({ jsonrpc: "2.0", id: 5, method: "ping" }, "https://evil.example");
    proxy.fromHost({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: resourceReady.params });
    proxy.fromElsewhere({ jsonrpc: "2.0", id: 6, method: "ping" });
    expect(proxy.toView).toEqual([{ data: result, target: "*" }]);
    // One view frame, whatever was asked for: never same-origin or top navigation.
    expect(proxy.frames).toHaveLength(1);
    const attributes = (proxy.frames[0] as { attributes: Record<string, string> }).attributes;
    expect(attributes.sandbox).toBe("allow-scripts");
  });
});
