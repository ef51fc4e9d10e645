// Tests for the Call form: fields from the input schema, the call through the API with what was
// typed, progress while it runs, Cancel, and a call the form's schema refuses never being sent.

import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CallEvent, CallResultView } from "../api/gatehouse";
import * as fake from "../test/fakeGatehouse";
import { makeTool } from "../test/serverFixtures";
import { ToolCallPanel } from "./ToolCallPanel";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

const done: CallResultView = {
  content: [{ type: "text", text: "Echo: hello" }],
  structuredContent: null,
  isError: false,
  schemaProblem: null,
  cancelled: false,
};

const echo = makeTool("echo", {
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { message: { type: "string", description: "Message to echo" } },
    required: ["message"],
  },
});

/** A call that stays open until the test answers it, with the event sink it was given. */
function pendingCall() {
  let answer: (result: CallResultView) => void = () => undefined;
  let send: (event: CallEvent) => void = () => undefined;
  fake.callTool.mockImplementation((_server, _id, _tool, _args, onEvent) => {
    send = onEvent;
    return new Promise((resolve) => (answer = resolve));
  });
  return { answer: (r: CallResultView) => answer(r), send: (e: CallEvent) => send(e) };
}

describe("ToolCallPanel", () => {
  it("calls the tool with what was typed in the generated form and shows the result", async () => {
    fake.callTool.mockResolvedValue(done);
    render(<ToolCallPanel serverId="srv-1" tool={echo} />);
    await userEvent.type(screen.getByRole("textbox"), "hello");
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    expect(await screen.findByTestId("call-text")).toHaveTextContent("Echo: hello");
    expect(fake.callTool).toHaveBeenCalledTimes(1);
    const [server, callId, tool, args] = fake.callTool.mock.calls[0] ?? [];
    expect([server, tool, args]).toEqual(["srv-1", "echo", { message: "hello" }]);
    expect(callId).toMatch(/^call-/);
  });

  it("does not send a call the input schema refuses", async () => {
    render(<ToolCallPanel serverId="srv-1" tool={echo} />);
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    await act(() => Promise.resolve());
    expect(fake.callTool).not.toHaveBeenCalled();
  });

  it("shows progress, determinate once the server sends a total, and cancels on request", async () => {
    const call = pendingCall();
    fake.cancelCall.mockResolvedValue(true);
    render(<ToolCallPanel serverId="srv-1" tool={makeTool("long", { inputSchema: { type: "object" } })} />);
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    const bar = await screen.findByTestId("call-progress-bar");
    expect(bar).not.toHaveAttribute("value");

    act(() => call.send({ kind: "progress", progress: 2, total: 10, message: "step 2" }));
    expect(screen.getByTestId("call-progress-bar")).toHaveAttribute("value", "2");
    expect(screen.getByTestId("call-progress-bar")).toHaveAttribute("max", "10");
    expect(screen.getByTestId("call-progress-text")).toHaveTextContent("2 of 10 · step 2");
    expect(screen.getByTestId("tool-call-submit")).toBeDisabled();

    await userEvent.click(screen.getByTestId("tool-call-cancel"));
    const callId = fake.callTool.mock.calls[0]?.[1];
    expect(fake.cancelCall).toHaveBeenCalledWith(callId);
    expect(screen.getByTestId("tool-call-cancel")).toHaveTextContent("Cancelling…");

    act(() => call.answer({ ...done, content: [], cancelled: true }));
    expect(await screen.findByTestId("call-cancelled")).toHaveTextContent("The call was cancelled.");
    expect(screen.queryByTestId("call-progress")).toBeNull();
  });

  it("says why a call failed", async () => {
    fake.callTool.mockRejectedValue(new Error("`everything` is not connected"));
    render(<ToolCallPanel serverId="srv-1" tool={makeTool("t", { inputSchema: { type: "object" } })} />);
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    expect(await screen.findByRole("alert")).toHaveTextContent("The call failed: `everything` is not connected");
  });

  it("cancels a running call when the form goes away", async () => {
    pendingCall();
    fake.cancelCall.mockResolvedValue(true);
    const { unmount } = render(<ToolCallPanel serverId="srv-1" tool={makeTool("t", { inputSchema: { type: "object" } })} />);
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    await screen.findByTestId("call-progress");
    unmount();
    await waitFor(() => expect(fake.cancelCall).toHaveBeenCalledTimes(1));
  });
});
