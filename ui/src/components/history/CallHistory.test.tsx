// Tests for a server's History tab: a call made with the Call form appears with its arguments and
// result, a failure with its message, and Call again makes the same call anew at the top.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CallResultView } from "../../api/gatehouse";
import { GatehouseError } from "../../api/GatehouseError";
import { clearCalls } from "../../model/callHistory";
import * as fake from "../../test/fakeGatehouse";
import { renderDetail } from "../../test/renderDetail";
import { connected, makeTool } from "../../test/serverFixtures";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => {
  fake.resetFakeGatehouse();
  clearCalls();
});

const echoed = (text: string): CallResultView => ({
  content: [{ type: "text", text }],
  structuredContent: null,
  isError: false,
  schemaProblem: null,
  cancelled: false,
});

const echo = makeTool("echo", {
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
});

async function callEcho(message: string) {
  const item = await screen.findByTestId("tool-item");
  await userEvent.click(within(item).getByTestId("tool-call-button"));
  // The form and its library load on first use: allow for a slow machine.
  const input = await within(item).findByRole("textbox", undefined, { timeout: 10_000 });
  await userEvent.clear(input);
  await userEvent.type(input, message);
  await userEvent.click(within(item).getByTestId("tool-call-submit"));
}

describe("History tab", () => {
  it("says there is nothing yet before any call", async () => {
    fake.listTools.mockResolvedValue([echo]);
    renderDetail(connected(1));
    await userEvent.click(screen.getByTestId("tab-history"));
    expect(screen.getByTestId("history-empty")).toHaveTextContent("No calls yet");
  });

  it("lists a call from the Call form with its arguments and result, and calls it again", async () => {
    fake.listTools.mockResolvedValue([echo]);
    fake.callTool.mockImplementation((_s, _id, _tool, args) => Promise.resolve(echoed(`Echo: ${String(args.message)}`)));
    renderDetail(connected(1));
    await callEcho("hello");
    expect(await screen.findByTestId("call-text")).toHaveTextContent("Echo: hello");

    await userEvent.click(screen.getByTestId("tab-history"));
    const [entry] = screen.getAllByTestId("history-entry");
    expect(entry).toHaveAttribute("data-tool-name", "echo");
    expect(entry).toHaveAttribute("data-outcome", "ok");
    expect(within(entry!).getByLabelText("Arguments of the echo call")).toHaveTextContent('"message": "hello"');
    expect(within(entry!).getByTestId("call-text")).toHaveTextContent("Echo: hello");

    await userEvent.click(within(entry!).getByRole("button", { name: "Call echo again with the same arguments" }));
    await waitFor(() => expect(screen.getAllByTestId("history-entry")).toHaveLength(2));
    expect(fake.callTool).toHaveBeenCalledTimes(2);
    expect(fake.callTool.mock.calls[1]?.[3]).toEqual({ message: "hello" });
    expect(fake.callTool.mock.calls[1]?.[1]).not.toBe(fake.callTool.mock.calls[0]?.[1]);
  });

  it("keeps a failed call with the engine's message", async () => {
    fake.listTools.mockResolvedValue([echo]);
    fake.callTool.mockRejectedValue(new GatehouseError("denied", "Denied by the rule `no echo`"));
    renderDetail(connected(1));
    await callEcho("x");
    await screen.findByTestId("call-failed");
    await userEvent.click(screen.getByTestId("tab-history"));
    const [entry] = screen.getAllByTestId("history-entry");
    expect(entry).toHaveAttribute("data-outcome", "failed");
    expect(entry).toHaveTextContent("The call failed: Denied by the rule `no echo`");
  });
});
