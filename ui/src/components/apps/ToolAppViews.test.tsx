// Tests for the app views below a tool's Call form: a tool with a UI resource shows its app
// below the result of a call (and a tool without one never does), and a new call tears the old
// view down (hidden meanwhile) before it is removed.

import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CallResultView } from "../../api/gatehouse";
import * as fake from "../../test/fakeGatehouse";
import { fakeSandbox, makeAppFrame } from "../../test/fakeSandbox";
import { makeTool } from "../../test/serverFixtures";
import { ToolCallPanel } from "../ToolCallPanel";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

const URI = "ui://fixture/app.html";
const UI_TOOL = makeTool("show", { inputSchema: { type: "object" }, ui: { resourceUri: URI, visibility: ["model", "app"] } });
const DONE: CallResultView = {
  content: [{ type: "text", text: "shown" }],
  structuredContent: { n: 1 },
  isError: false,
  schemaProblem: null,
  cancelled: false,
};
const FRAME = makeAppFrame({ uri: URI, prefersBorder: false });

beforeEach(() => {
  fake.resetFakeGatehouse();
  vi.spyOn(console, "debug").mockImplementation(() => undefined);
  fake.appOpenView.mockResolvedValue(FRAME);
  fake.cancelCall.mockResolvedValue(true);
});

describe("ToolAppViews", () => {
  it("shows the app of a tool with a UI below its call's result, with the call's input and result", async () => {
    fake.callTool.mockResolvedValue(DONE);
    render(<ToolCallPanel serverId="srv-1" tool={UI_TOOL} />);
    expect(screen.queryByTestId("app-panel"), "no app before a call").toBeNull();
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    await screen.findByTestId("call-result");
    const panel = await screen.findByTestId("app-panel");
    expect(panel).toHaveAttribute("data-app-uri", URI);
    expect(panel, "prefersBorder: false is honoured").not.toHaveClass("app-panel-bordered");
    expect(fake.appOpenView).toHaveBeenCalledWith("srv-1", URI);

    const sandbox = fakeSandbox(FRAME.sandboxUrl);
    await screen.findByTestId("app-frame");
    await sandbox.initialize();
    await waitFor(() => expect(sandbox.methods()).toContain("ui/notifications/tool-result"));
    const params = (m: string) => sandbox.sent.find((s) => s.message.method === m)?.message.params;
    expect(params("ui/notifications/tool-input")).toEqual({ arguments: {} });
    expect(params("ui/notifications/tool-result")).toEqual({
      content: [{ type: "text", text: "shown" }],
      structuredContent: { n: 1 },
      isError: false,
    });
  });

  it("shows no app for a tool without a UI resource", async () => {
    fake.callTool.mockResolvedValue(DONE);
    render(<ToolCallPanel serverId="srv-1" tool={makeTool("plain", { inputSchema: { type: "object" } })} />);
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    await screen.findByTestId("call-result");
    expect(screen.queryByTestId("app-panel")).toBeNull();
    expect(fake.appOpenView).not.toHaveBeenCalled();
  });

  it("tears the old view down when another call starts, and removes it once it answered", async () => {
    fake.callTool.mockResolvedValueOnce(DONE);
    render(<ToolCallPanel serverId="srv-1" tool={UI_TOOL} />);
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    const sandbox = fakeSandbox(FRAME.sandboxUrl);
    await screen.findByTestId("app-frame");
    await sandbox.initialize();
    await waitFor(() => expect(screen.getByTestId("app-panel")).toHaveAttribute("data-app-state", "ready"));

    fake.callTool.mockReturnValueOnce(new Promise(() => undefined));
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    const teardown = await waitFor(() => {
      const sent = sandbox.sent.find((s) => s.message.method === "ui/resource-teardown");
      if (sent === undefined) throw new Error("no teardown yet");
      return sent.message;
    });
    expect(screen.getByTestId("app-panel"), "the old view is hidden while it tears down").not.toBeVisible();
    expect(fake.appCloseView).not.toHaveBeenCalled();
    sandbox.post({ jsonrpc: "2.0", id: teardown.id, result: {} });
    await waitFor(() => expect(screen.queryByTestId("app-panel")).toBeNull());
    await waitFor(() => expect(fake.appCloseView).toHaveBeenCalledWith(FRAME.sandboxUrl));
  });
});
