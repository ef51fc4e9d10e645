// Tests for one view's session over a fake proxy page in the view's own webview: the handshake
// taken only from this view's relayed messages, nothing sent to the view before `initialized`,
// the tool call after it, the requests a view makes (forwarded for its own server, refused or
// confirmed), and teardown.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../api/GatehouseError";
import { answerDisplayModeRequest } from "../model/appDisplayMode";
import * as fake from "../test/fakeGatehouse";
import { fakeSandbox, makeAppFrame, SANDBOX_ORIGIN } from "../test/fakeSandbox";
import type { ViewHost } from "./appRequestHandlers";
import { AppViewSession, VIEW_SANDBOX } from "./AppViewSession";
import type { ViewOutcome } from "./AppViewSession";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

const FRAME = makeAppFrame({
  csp: { connectDomains: ["https://api.example.com"], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  permissions: { camera: true, microphone: true, geolocation: false, clipboardWrite: false },
});

const RESULT: ViewOutcome = { kind: "result", result: { content: [{ type: "text", text: "42" }], isError: false } };

function testHost() {
  return {
    confirmOpenLink: vi.fn<ViewHost["confirmOpenLink"]>(() => Promise.resolve(true)),
    confirmDownload: vi.fn<ViewHost["confirmDownload"]>(() => Promise.resolve(true)),
    requestDisplayMode: vi.fn<ViewHost["requestDisplayMode"]>((mode, appModes) =>
      answerDisplayModeRequest(mode, "inline", appModes),
    ),
    sizeChanged: vi.fn<ViewHost["sizeChanged"]>(),
    note: vi.fn<ViewHost["note"]>(),
    requestTeardown: vi.fn<ViewHost["requestTeardown"]>(),
  };
}

let sessions: AppViewSession[] = [];

async function startSession(outcome: ViewOutcome = RESULT) {
  const sandbox = fakeSandbox(FRAME.sandboxUrl);
  const host = testHost();
  const onReady = vi.fn();
  const session = new AppViewSession({
    frame: FRAME,
    permissions: { camera: true, microphone: false, geolocation: false, clipboardWrite: false },
    hostContext: { theme: "dark", displayMode: "inline", platform: "desktop" },
    input: { n: 6 },
    outcome,
    host,
    onReady,
  });
  sessions.push(session);
  await session.start();
  return { session, sandbox, host, onReady };
}

beforeEach(() => {
  fake.resetFakeGatehouse();
  // The SDK's transport logs every message at debug level.
  vi.spyOn(console, "debug").mockImplementation(() => undefined);
});
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  sessions = [];
  document.body.innerHTML = "";
});

describe("AppViewSession", () => {
  it("answers only its own view's proxy, with the resource and only the agreed permissions", async () => {
    const { sandbox } = await startSession();
    sandbox.notify("ui/notifications/sandbox-proxy-ready", {}, `${SANDBOX_ORIGIN}/sandbox?view=t2`);
    sandbox.post("not JSON-RPC");
    sandbox.post({ id: 3, method: "ui/initialize" });
    await new Promise((r) => setTimeout(r, 20));
    expect(sandbox.sent, "another view's messages, and malformed ones, get nothing").toEqual([]);
    expect(fake.appPostToView).not.toHaveBeenCalled();

    sandbox.notify("ui/notifications/sandbox-proxy-ready");
    await vi.waitFor(() => expect(sandbox.methods()).toEqual(["ui/notifications/sandbox-resource-ready"]));
    const [ready] = sandbox.sent;
    expect(fake.appPostToView.mock.calls.every(([view]) => view === FRAME.sandboxUrl), "sent to this view only").toBe(true);
    expect(ready?.message.params).toEqual({
      html: FRAME.html,
      sandbox: VIEW_SANDBOX,
      csp: FRAME.csp,
      permissions: { camera: {} },
    });
  });

  it("answers ui/initialize with host info, handled capabilities and context, and sends nothing to the view before initialized", async () => {
    const { session, sandbox, onReady } = await startSession();
    sandbox.notify("ui/notifications/sandbox-proxy-ready");
    const answer = await sandbox.request("ui/initialize", {
      protocolVersion: "2026-01-26",
      appInfo: { name: "fixture-view", version: "1.0.0" },
      appCapabilities: {},
    });
    expect(answer.result?.hostInfo).toEqual({ name: "Gatehouse", version: "0.1.0" });
    expect(answer.result?.hostContext).toEqual({ theme: "dark", displayMode: "inline", platform: "desktop" });
    const capabilities = answer.result?.hostCapabilities as Record<string, unknown>;
    expect(Object.keys(capabilities).sort()).toEqual(
      ["downloadFile", "logging", "message", "openLinks", "sampling", "sandbox", "serverResources", "serverTools", "updateModelContext"].sort(),
    );
    expect(capabilities.sandbox).toEqual({ permissions: { camera: {} }, csp: FRAME.csp });

    session.updateContext({ theme: "light", displayMode: "inline", platform: "desktop" });
    await new Promise((r) => setTimeout(r, 20));
    expect(sandbox.methods(), "the host must not send the view anything before initialized").toEqual([
      "ui/notifications/sandbox-resource-ready",
    ]);
    expect(session.ready).toBe(false);

    sandbox.notify("ui/notifications/initialized");
    await vi.waitFor(() =>
      expect(sandbox.methods()).toEqual([
        "ui/notifications/sandbox-resource-ready",
        "ui/notifications/host-context-changed",
        "ui/notifications/tool-input",
        "ui/notifications/tool-result",
      ]),
    );
    expect(onReady).toHaveBeenCalledTimes(1);
    const byMethod = (m: string) => sandbox.sent.find((s) => s.message.method === m)?.message.params;
    expect(byMethod("ui/notifications/host-context-changed")).toEqual({ theme: "light" });
    expect(byMethod("ui/notifications/tool-input")).toEqual({ arguments: { n: 6 } });
    expect(byMethod("ui/notifications/tool-result")).toEqual({ content: [{ type: "text", text: "42" }], isError: false });
  });

  it("answers ui/initialize with the context as it is then, changes made before sent to nobody", async () => {
    const { session, sandbox } = await startSession();
    session.updateContext({ theme: "light", displayMode: "inline", platform: "desktop", containerDimensions: { width: 640, maxHeight: 600 } });
    await new Promise((r) => setTimeout(r, 20));
    expect(sandbox.sent, "no view exists yet to tell").toEqual([]);
    const answer = await sandbox.initialize();
    expect(answer.result?.hostContext).toEqual({
      theme: "light",
      displayMode: "inline",
      platform: "desktop",
      containerDimensions: { width: 640, maxHeight: 600 },
    });
  });

  it("tells the view a failed or cancelled call was cancelled", async () => {
    const { sandbox } = await startSession({ kind: "cancelled", reason: "The call was cancelled." });
    await sandbox.initialize();
    await vi.waitFor(() => expect(sandbox.methods()).toContain("ui/notifications/tool-cancelled"));
    expect(sandbox.methods()).not.toContain("ui/notifications/tool-result");
    expect(sandbox.sent.at(-1)?.message.params).toEqual({ reason: "The call was cancelled." });
  });

  it("forwards tools/call to the engine for its own server, and an engine refusal as a JSON-RPC error", async () => {
    const { sandbox } = await startSession();
    await sandbox.initialize();
    fake.appCallTool.mockResolvedValueOnce({ content: [{ type: "text", text: "ok" }] });
    const ok = await sandbox.request("tools/call", { name: "poll", arguments: { x: 1 } });
    expect(fake.appCallTool).toHaveBeenCalledWith(`${SANDBOX_ORIGIN}/sandbox?view=t1`, "poll", { x: 1 });
    expect(ok.result).toEqual({ content: [{ type: "text", text: "ok" }] });

    fake.appCallTool.mockRejectedValueOnce(new GatehouseError("denied", "`secret` is not callable by apps"));
    const denied = await sandbox.request("tools/call", { name: "secret", arguments: {} });
    expect(denied.error).toEqual({ code: -32000, message: "`secret` is not callable by apps", data: { reason: "denied" } });
  });

  it("forwards resources, the list calls and sampling for its own server", async () => {
    const { sandbox } = await startSession();
    await sandbox.initialize();
    fake.appReadResource.mockResolvedValue({ contents: [{ uri: "file:///a", text: "a" }] });
    fake.appListResources.mockResolvedValue({ resources: [] });
    fake.appListResourceTemplates.mockResolvedValue({ resourceTemplates: [] });
    fake.appListTools.mockResolvedValue({ tools: [] });
    fake.appCreateMessage.mockResolvedValue({ role: "assistant", content: { type: "text", text: "hi" }, model: "person" });
    expect((await sandbox.request("resources/read", { uri: "file:///a" })).result).toEqual({
      contents: [{ uri: "file:///a", text: "a" }],
    });
    expect((await sandbox.request("resources/list", {})).result).toEqual({ resources: [] });
    expect((await sandbox.request("resources/templates/list", {})).result).toEqual({ resourceTemplates: [] });
    expect((await sandbox.request("tools/list", {})).result).toEqual({ tools: [] });
    const sampling = { messages: [{ role: "user", content: { type: "text", text: "hello" } }], maxTokens: 10 };
    expect((await sandbox.request("sampling/createMessage", sampling)).result).toMatchObject({ model: "person" });
    expect(fake.appReadResource).toHaveBeenCalledWith(FRAME.sandboxUrl, "file:///a");
    expect(fake.appListResources).toHaveBeenCalledWith(FRAME.sandboxUrl);
    expect(fake.appListResourceTemplates).toHaveBeenCalledWith(FRAME.sandboxUrl);
    expect(fake.appListTools).toHaveBeenCalledWith(FRAME.sandboxUrl);
    expect(fake.appCreateMessage).toHaveBeenCalledWith(FRAME.sandboxUrl, sampling);
  });

  it("refuses javascript: and file: links without asking, and opens http(s) links only after the person agrees", async () => {
    const { sandbox, host } = await startSession();
    await sandbox.initialize();
    for (const url of ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi", "not a url"]) {
      const answer = await sandbox.request("ui/open-link", { url });
      expect(answer.error?.code, `${url} must be refused`).toBe(-32000);
    }
    expect(host.confirmOpenLink, "a link that is never opened is never offered").not.toHaveBeenCalled();
    expect(fake.appOpenLink).not.toHaveBeenCalled();

    host.confirmOpenLink.mockResolvedValueOnce(false);
    const declined = await sandbox.request("ui/open-link", { url: "https://example.com/a" });
    expect(declined.error?.message).toBe("Link opening denied by user");
    expect(fake.appOpenLink).not.toHaveBeenCalled();

    const opened = await sandbox.request("ui/open-link", { url: "https://example.com/b" });
    expect(opened.result).toEqual({});
    expect(host.confirmOpenLink).toHaveBeenLastCalledWith("https://example.com/b");
    expect(fake.appOpenLink).toHaveBeenCalledExactlyOnceWith("https://example.com/b");
  });

  it("saves a file only after the person agrees", async () => {
    const { sandbox, host } = await startSession();
    await sandbox.initialize();
    const params = { contents: [{ type: "resource", resource: { uri: "file:///report.csv", text: "a,b", mimeType: "text/csv" } }] };
    host.confirmDownload.mockResolvedValueOnce(false);
    expect((await sandbox.request("ui/download-file", params)).result).toEqual({ isError: true });
    expect(fake.appDownloadFile).not.toHaveBeenCalled();

    fake.appDownloadFile.mockResolvedValue({ path: "/home/me/Downloads/report.csv", paths: ["/home/me/Downloads/report.csv"] });
    expect((await sandbox.request("ui/download-file", params)).result).toEqual({});
    expect(fake.appDownloadFile).toHaveBeenCalledWith(FRAME.sandboxUrl, params);
  });

  it("answers display-mode requests with the resulting mode, never one the view did not declare", async () => {
    const { sandbox, host } = await startSession();
    await sandbox.initialize({ availableDisplayModes: ["inline"] });
    expect((await sandbox.request("ui/request-display-mode", { mode: "fullscreen" })).result).toEqual({ mode: "inline" });
    expect(host.requestDisplayMode).toHaveBeenCalledWith("fullscreen", ["inline"]);
    expect((await sandbox.request("ui/request-display-mode", { mode: "pip" })).result).toEqual({ mode: "inline" });
  });

  it("hands messages, context updates, size changes and teardown requests to the panel", async () => {
    const { sandbox, host } = await startSession();
    await sandbox.initialize();
    const message = { role: "user", content: [{ type: "text", text: "add this" }] };
    expect((await sandbox.request("ui/message", message)).result).toEqual({});
    expect((await sandbox.request("ui/update-model-context", { structuredContent: { total: 3 } })).result).toEqual({});
    expect(host.note).toHaveBeenNthCalledWith(1, { kind: "message", params: message });
    expect(host.note).toHaveBeenNthCalledWith(2, { kind: "context", params: { structuredContent: { total: 3 } } });
    sandbox.notify("ui/notifications/size-changed", { width: 300, height: 240 });
    sandbox.notify("ui/notifications/request-teardown", {});
    await vi.waitFor(() => expect(host.requestTeardown).toHaveBeenCalledTimes(1));
    expect(host.sizeChanged).toHaveBeenCalledWith({ width: 300, height: 240 });
  });

  it("sends ui/resource-teardown and waits for the answer; a view that is not initialized is sent nothing", async () => {
    const first = await startSession();
    await first.session.teardown("closed");
    expect(first.sandbox.methods()).not.toContain("ui/resource-teardown");

    const { session, sandbox } = await startSession();
    await sandbox.initialize();
    await vi.waitFor(() => expect(session.ready).toBe(true));
    let done = false;
    const teardown = session.teardown("closed").then(() => (done = true));
    const request = await vi.waitFor(() => {
      const sent = sandbox.sent.find((s) => s.message.method === "ui/resource-teardown");
      if (sent === undefined) throw new Error("no teardown yet");
      return sent.message;
    });
    expect(request.params).toEqual({ reason: "closed" });
    await new Promise((r) => setTimeout(r, 20));
    expect(done, "the host waits for the view's answer").toBe(false);
    sandbox.post({ jsonrpc: "2.0", id: request.id, result: {} });
    await teardown;
    expect(done).toBe(true);
  });

  it("stops waiting for a view that never answers the teardown", async () => {
    const { session, sandbox } = await startSession();
    await sandbox.initialize();
    await vi.waitFor(() => expect(session.ready).toBe(true));
    const started = Date.now();
    await session.teardown("closed", 50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(sandbox.methods()).toContain("ui/resource-teardown");
  });
});
