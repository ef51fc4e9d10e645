// Tests for the app panel over a fake proxy page (the real one runs in the view's own webview,
// which jsdom has not): the view's area and its states, where the view's webview is placed (and
// hidden under the window's dialogs), the permission prompt, the link and download
// confirmations, display modes, size changes, the app's messages, theme changes, and teardown
// before removal.

import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppFrame } from "../../api/gatehouse";
import { MAX_INLINE_HEIGHT } from "../../model/appHostContext";
import * as fake from "../../test/fakeGatehouse";
import { fakeSandbox, makeAppFrame, NO_PERMISSIONS } from "../../test/fakeSandbox";
import { makeTool } from "../../test/serverFixtures";
import { AppPanel } from "./AppPanel";
import type { AppCall } from "./AppPanel";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

const URI = "ui://fixture/app.html";
const TOOL = makeTool("show", { inputSchema: { type: "object" } });
const CALL: AppCall = { input: { n: 1 }, outcome: { kind: "result", result: { content: [{ type: "text", text: "1" }], isError: false } } };
const FRAME = makeAppFrame({ uri: URI });

async function renderPanel(frame: AppFrame = FRAME) {
  fake.appOpenView.mockResolvedValue(frame);
  const onClosed = vi.fn();
  const view = render(<AppPanel serverId="srv-1" tool={TOOL} uri={URI} call={CALL} onClosed={onClosed} />);
  return { onClosed, view, ...(await showFrame()) };
}

async function showFrame() {
  const sandbox = fakeSandbox(FRAME.sandboxUrl);
  const area = await screen.findByTestId("app-frame");
  expect(area.dataset.sandboxUrl).toBe(FRAME.sandboxUrl);
  return { area, sandbox };
}

/** The placements asked for the view, in order. */
const placements = () => fake.appPlaceView.mock.calls.filter(([view]) => view === FRAME.sandboxUrl).map(([, placement]) => placement);

const panel = () => screen.getByTestId("app-panel");

beforeEach(() => {
  fake.resetFakeGatehouse();
  vi.spyOn(console, "debug").mockImplementation(() => undefined);
  document.documentElement.dataset.theme = "light";
});

afterEach(() => {
  delete document.documentElement.dataset.theme;
});

describe("AppPanel", () => {
  it("shows the view in its own webview, loading until the view says initialized, then ready", async () => {
    const { area, sandbox } = await renderPanel();
    expect(fake.appOpenView).toHaveBeenCalledWith("srv-1", URI);
    expect(panel()).toHaveAttribute("data-app-uri", URI);
    expect(panel()).toHaveAttribute("data-app-state", "loading");
    expect(area.tagName, "the window frames nothing of the view").not.toBe("IFRAME");
    expect(panel().querySelector("iframe")).toBeNull();
    await waitFor(() => expect(placements().length).toBeGreaterThan(0));
    expect(
      fake.listenAppViewMessages.mock.invocationCallOrder[0],
      "the window listens to the view before its webview is made",
    ).toBeLessThan(fake.appPlaceView.mock.invocationCallOrder[0] ?? 0);

    const answer = await sandbox.initialize();
    expect(answer.result?.hostContext).toMatchObject({
      theme: "light",
      displayMode: "inline",
      availableDisplayModes: ["inline", "fullscreen"],
      platform: "desktop",
      toolInfo: { tool: { name: "show" } },
    });
    await waitFor(() => expect(panel()).toHaveAttribute("data-app-state", "ready"));
    await waitFor(() =>
      expect(sandbox.methods()).toEqual([
        "ui/notifications/sandbox-resource-ready",
        "ui/notifications/tool-input",
        "ui/notifications/tool-result",
      ]),
    );
  });

  it("gives the view the width of the panel it is shown in, and the window's size in fullscreen", async () => {
    // jsdom lays nothing out: this observer reports every element as 640 by 300.
    class FixedSizeObserver {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe(target: Element) {
        const entry = { target, contentRect: { width: 640, height: 300 } } as unknown as ResizeObserverEntry;
        queueMicrotask(() => this.callback([entry], this));
      }
      unobserve() {
        return undefined;
      }
      disconnect() {
        return undefined;
      }
    }
    vi.stubGlobal("ResizeObserver", FixedSizeObserver);
    try {
      const { sandbox } = await renderPanel();
      await new Promise((r) => setTimeout(r, 20));
      const answer = await sandbox.initialize();
      expect(answer.result?.hostContext).toMatchObject({ containerDimensions: { width: 640, maxHeight: MAX_INLINE_HEIGHT } });
      await userEvent.click(screen.getByTestId("app-fullscreen"));
      await waitFor(() =>
        expect(sandbox.sent.at(-1)?.message.params).toMatchObject({
          displayMode: "fullscreen",
          containerDimensions: { width: 640, height: 300 },
        }),
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("places the view's webview over the visible part of its area, and hides it under a dialog", async () => {
    // jsdom lays nothing out: the view's area is 600 by 320 at (100, 40), under a 60 px header.
    const rect = (left: number, top: number, width: number, height: number) =>
      ({ left, top, right: left + width, bottom: top + height, width, height, x: left, y: top }) as DOMRect;
    const header = document.createElement("header");
    header.className = "app-header";
    document.body.prepend(header);
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      if (this.dataset.testid === "app-frame") return rect(100, 40, 600, 320);
      if (this === header) return rect(0, 0, 1024, 60);
      return rect(0, 0, 1024, 2000);
    });
    try {
      const { sandbox } = await renderPanel();
      await waitFor(() =>
        expect(placements().at(-1)).toEqual({
          visible: true,
          x: 100,
          y: 60,
          width: 600,
          height: 300,
          viewWidth: 600,
          viewHeight: 320,
          offsetX: 0,
          offsetY: 20,
        }),
      );
      await sandbox.initialize();
      const pending = sandbox.request("ui/open-link", { url: "https://example.com/" });
      await screen.findByRole("alertdialog", { name: "Open this link?" });
      await waitFor(() => expect(placements().at(-1), "the dialog must not be under the view").toMatchObject({ visible: false }));
      await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
      await pending;
      await waitFor(() => expect(placements().at(-1)).toMatchObject({ visible: true, y: 60 }));
    } finally {
      vi.restoreAllMocks();
      header.remove();
    }
  });

  it("says why the view could not be opened", async () => {
    fake.appOpenView.mockRejectedValue(new Error("the resource is not text/html;profile=mcp-app"));
    render(<AppPanel serverId="srv-1" tool={TOOL} uri={URI} call={CALL} onClosed={vi.fn()} />);
    expect(await screen.findByTestId("app-error")).toHaveTextContent("text/html;profile=mcp-app");
    expect(panel()).toHaveAttribute("data-app-state", "error");
    expect(screen.queryByTestId("app-frame")).toBeNull();
  });

  it("says so when the view does not start in time", async () => {
    fake.appOpenView.mockResolvedValue(FRAME);
    render(<AppPanel serverId="srv-1" tool={TOOL} uri={URI} call={CALL} onClosed={vi.fn()} startTimeoutMs={50} />);
    await showFrame();
    expect(panel()).toHaveAttribute("data-app-state", "loading");
    expect(await screen.findByTestId("app-error")).toHaveTextContent("did not start");
    expect(panel()).toHaveAttribute("data-app-state", "error");
  });

  it("asks for the declared permissions before the view loads and passes on only the agreed ones", async () => {
    fake.appOpenView.mockResolvedValue({ ...FRAME, permissions: { ...NO_PERMISSIONS, camera: true, microphone: true } });
    render(<AppPanel serverId="srv-1" tool={TOOL} uri={URI} call={CALL} onClosed={vi.fn()} />);
    await screen.findByTestId("app-permissions");
    expect(screen.queryByTestId("app-frame"), "nothing loads before the person answers").toBeNull();
    expect(screen.queryByTestId("app-permission-geolocation")).toBeNull();
    await userEvent.click(screen.getByTestId("app-permission-camera"));
    await userEvent.click(screen.getByTestId("app-permissions-continue"));

    const { sandbox } = await showFrame();
    sandbox.notify("ui/notifications/sandbox-proxy-ready");
    await waitFor(() => expect(sandbox.sent[0]?.message.params).toMatchObject({ permissions: { camera: {} } }));
    expect(screen.queryByTestId("app-permissions"), "asked once per view").toBeNull();
  });

  it("names the outside sites a view declared, and says nothing for a view that declared none", async () => {
    await renderPanel();
    expect(screen.queryByTestId("app-domains")).toBeNull();
    fake.resetFakeGatehouse();
    fake.appOpenView.mockResolvedValue({
      ...FRAME,
      csp: { ...FRAME.csp, connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com"] },
    });
    render(<AppPanel serverId="srv-2" tool={TOOL} uri={URI} call={CALL} onClosed={vi.fn()} />);
    const notice = await screen.findByTestId("app-domains");
    expect(screen.getByTestId("app-domains-connectDomains")).toHaveTextContent("https://api.example.com");
    expect(screen.getByTestId("app-domains-resourceDomains")).toHaveTextContent("https://cdn.example.com");
    expect(notice).not.toHaveTextContent("show pages from");
    expect(screen.queryByTestId("app-domains-withheld")).toBeNull();
  });

  it("names the declared sites the person's app site lists withheld", async () => {
    fake.appOpenView.mockResolvedValue({ ...FRAME, withheld: ["https://tracker.example.net"] });
    render(<AppPanel serverId="srv-1" tool={TOOL} uri={URI} call={CALL} onClosed={vi.fn()} />);
    const notice = await screen.findByTestId("app-domains");
    expect(notice).toHaveTextContent("This app may reach no site outside Gatehouse.");
    expect(screen.getByTestId("app-domains-withheld")).toHaveTextContent("https://tracker.example.net");
  });

  it("names the declared sites refused because they lead to this computer or a private network", async () => {
    fake.appOpenView.mockResolvedValue({ ...FRAME, refused: ["http://127.0.0.1:3000 (this computer (loopback))"] });
    render(<AppPanel serverId="srv-1" tool={TOOL} uri={URI} call={CALL} onClosed={vi.fn()} />);
    await screen.findByTestId("app-domains");
    expect(screen.getByTestId("app-domains-refused")).toHaveTextContent("http://127.0.0.1:3000 (this computer (loopback))");
    expect(screen.getByTestId("app-domains-refused")).toHaveTextContent("App sites");
    expect(screen.queryByTestId("app-domains-withheld")).toBeNull();
  });

  it("confirms a link with its URL before opening it, and refuses javascript: without asking", async () => {
    const { sandbox } = await renderPanel();
    await sandbox.initialize();
    const refused = await sandbox.request("ui/open-link", { url: "javascript:alert(document.domain)" });
    expect(refused.error?.code).toBe(-32000);
    expect(screen.queryByRole("alertdialog")).toBeNull();

    const pending = sandbox.request("ui/open-link", { url: "https://example.com/docs?q=1" });
    const dialog = await screen.findByRole("alertdialog", { name: "Open this link?" });
    expect(dialog).toHaveTextContent("https://example.com/docs?q=1");
    expect(await within(dialog).findByTestId("approval-domain")).toHaveTextContent("example.com");
    expect(fake.describeUrl).toHaveBeenCalledWith("https://example.com/docs?q=1");
    expect(fake.appOpenLink).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Open" }));
    expect((await pending).result).toEqual({});
    expect(fake.appOpenLink).toHaveBeenCalledExactlyOnceWith("https://example.com/docs?q=1");

    const cancelled = sandbox.request("ui/open-link", { url: "https://example.com/other" });
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect((await cancelled).error?.message).toBe("Link opening denied by user");
    expect(fake.appOpenLink).toHaveBeenCalledTimes(1);
  });

  it("shows a link's site and the engine's warnings, and offers Open only once they are there", async () => {
    let describe: (site: { domain: string; warnings: string[] }) => void = () => undefined;
    fake.describeUrl.mockImplementation(() => new Promise((resolve) => (describe = resolve)));
    const { sandbox } = await renderPanel();
    await sandbox.initialize();
    void sandbox.request("ui/open-link", { url: "http://bank.example@xn--pple-43d.com/login" });
    const dialog = await screen.findByRole("alertdialog", { name: "Open this link?" });
    expect(within(dialog).getByRole("button", { name: "Open" })).toBeDisabled();
    describe({
      domain: "xn--pple-43d.com",
      warnings: ["the site name is written in Punycode (xn--) and may imitate another one", "the URL carries a user name, which can disguise the real site"],
    });
    expect(await within(dialog).findByTestId("approval-domain")).toHaveTextContent("xn--pple-43d.com");
    expect(within(dialog).getByTestId("approval-warnings")).toHaveTextContent("Punycode");
    expect(within(dialog).getByTestId("approval-warnings")).toHaveTextContent("user name");
    expect(within(dialog).getByRole("button", { name: "Open" })).toBeEnabled();
  });

  it("confirms a download before saving it", async () => {
    fake.appDownloadFile.mockResolvedValue({ path: "/home/me/Downloads/report.csv", paths: ["/home/me/Downloads/report.csv"] });
    const { sandbox } = await renderPanel();
    await sandbox.initialize();
    const params = { contents: [{ type: "resource", resource: { uri: "file:///exports/report.csv", mimeType: "text/csv", text: "a,b" } }] };
    const pending = sandbox.request("ui/download-file", params);
    const dialog = await screen.findByRole("alertdialog", { name: "Save this file?" });
    expect(dialog).toHaveTextContent("report.csv");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await pending).result).toEqual({});
    expect(fake.appDownloadFile).toHaveBeenCalledWith(FRAME.sandboxUrl, params);

    const declined = sandbox.request("ui/download-file", params);
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect((await declined).result).toEqual({ isError: true });
    expect(fake.appDownloadFile).toHaveBeenCalledTimes(1);
  });

  it("goes fullscreen when the view asks or the person does, and leaves on Escape, telling the view", async () => {
    const { sandbox } = await renderPanel();
    await sandbox.initialize({ availableDisplayModes: ["inline", "fullscreen"] });
    const answer = await sandbox.request("ui/request-display-mode", { mode: "fullscreen" });
    expect(answer.result).toEqual({ mode: "fullscreen" });
    await waitFor(() => expect(panel()).toHaveClass("app-panel-fullscreen"));
    const contextChanges = () =>
      sandbox.sent.filter((s) => s.message.method === "ui/notifications/host-context-changed").map((s) => s.message.params);
    await waitFor(() => expect(contextChanges()).toContainEqual(expect.objectContaining({ displayMode: "fullscreen" })));

    await userEvent.keyboard("{Escape}");
    expect(panel()).not.toHaveClass("app-panel-fullscreen");
    await waitFor(() => expect(contextChanges().at(-1)).toMatchObject({ displayMode: "inline" }));

    await userEvent.click(screen.getByTestId("app-fullscreen"));
    expect(panel()).toHaveClass("app-panel-fullscreen");
    await userEvent.click(screen.getByTestId("app-fullscreen"));
    expect(panel()).not.toHaveClass("app-panel-fullscreen");
  });

  it("keeps fullscreen when Escape closes a confirmation over it", async () => {
    const { sandbox } = await renderPanel();
    await sandbox.initialize();
    await userEvent.click(await screen.findByTestId("app-fullscreen"));
    const pending = sandbox.request("ui/open-link", { url: "https://example.com/" });
    await screen.findByRole("alertdialog", { name: "Open this link?" });
    await userEvent.keyboard("{Escape}");
    expect((await pending).error?.message).toBe("Link opening denied by user");
    expect(panel(), "the Escape was the dialog's").toHaveClass("app-panel-fullscreen");
  });

  it("offers no fullscreen to a view that declared only inline", async () => {
    const { sandbox } = await renderPanel();
    await sandbox.initialize({ availableDisplayModes: ["inline"] });
    await waitFor(() => expect(panel()).toHaveAttribute("data-app-state", "ready"));
    expect(screen.getByTestId("app-fullscreen")).toBeDisabled();
    expect((await sandbox.request("ui/request-display-mode", { mode: "fullscreen" })).result).toEqual({ mode: "inline" });
    expect(panel()).not.toHaveClass("app-panel-fullscreen");
  });

  it("follows the view's height inline, within bounds", async () => {
    const { sandbox } = await renderPanel();
    await sandbox.initialize();
    sandbox.notify("ui/notifications/size-changed", { width: 500, height: 240 });
    await waitFor(() => expect(screen.getByTestId("app-panel-body").style.height).toBe("240px"));
    sandbox.notify("ui/notifications/size-changed", { width: 500, height: 50_000 });
    await waitFor(() => expect(screen.getByTestId("app-panel-body").style.height).toBe(`${MAX_INLINE_HEIGHT}px`));
  });

  it("lists the view's messages and model-context updates", async () => {
    const { sandbox } = await renderPanel();
    await sandbox.initialize();
    await sandbox.request("ui/message", { role: "user", content: [{ type: "text", text: "Book the 9:15" }] });
    await sandbox.request("ui/update-model-context", { structuredContent: { budget: 1200 } });
    const entries = await screen.findAllByTestId("app-message");
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent("Book the 9:15");
    expect(entries[1]).toHaveTextContent('"budget": 1200');
    expect(screen.getByTestId("app-messages")).toBeInTheDocument();
  });

  it("tells the view when the window's theme changes", async () => {
    const { sandbox } = await renderPanel();
    await sandbox.initialize();
    await waitFor(() => expect(sandbox.methods()).toContain("ui/notifications/tool-result"));
    act(() => {
      document.documentElement.dataset.theme = "dark";
    });
    await waitFor(
      () =>
        expect(sandbox.sent.at(-1)?.message).toMatchObject({
          method: "ui/notifications/host-context-changed",
          params: { theme: "dark" },
        }),
      // The host context goes through React state, then the relay: give a busy machine time.
      { timeout: 3000 },
    );
  });

  it("on Close, sends ui/resource-teardown and is removed only once the view answered", async () => {
    const { sandbox, onClosed } = await renderPanel();
    await sandbox.initialize();
    await waitFor(() => expect(panel()).toHaveAttribute("data-app-state", "ready"));
    await userEvent.click(screen.getByTestId("app-close"));
    const teardown = await waitFor(() => {
      const sent = sandbox.sent.find((s) => s.message.method === "ui/resource-teardown");
      if (sent === undefined) throw new Error("no teardown yet");
      return sent.message;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(onClosed, "the frame stays until the view answered").not.toHaveBeenCalled();
    sandbox.post({ jsonrpc: "2.0", id: teardown.id, result: {} });
    await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1));
  });

  it("answers the view's request to close with a teardown", async () => {
    const { sandbox, onClosed, view } = await renderPanel();
    await sandbox.initialize();
    await waitFor(() => expect(panel()).toHaveAttribute("data-app-state", "ready"));
    sandbox.notify("ui/notifications/request-teardown", {});
    const teardown = await waitFor(() => {
      const sent = sandbox.sent.find((s) => s.message.method === "ui/resource-teardown");
      if (sent === undefined) throw new Error("no teardown yet");
      return sent.message;
    });
    sandbox.post({ jsonrpc: "2.0", id: teardown.id, result: {} });
    await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1));
    view.unmount();
    await waitFor(() => expect(fake.appCloseView).toHaveBeenCalledWith(FRAME.sandboxUrl));
  });
});
