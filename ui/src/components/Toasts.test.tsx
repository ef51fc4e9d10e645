// Tests for the toasts: one shows with its text and action, is announced, and goes when
// dismissed; the same note raised again is counted, not stacked; no more than MAX_TOASTS show;
// and a failed Cancel of a tool call (a background action) raises one that says what to do.

import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CallResultView } from "../api/gatehouse";
import { clearToasts, MAX_TOASTS, sentence, showToast } from "../hooks/useToast";
import * as fake from "../test/fakeGatehouse";
import { makeTool } from "../test/serverFixtures";
import { ToolCallPanel } from "./ToolCallPanel";
import { Toasts } from "./Toasts";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());
afterEach(() => act(() => clearToasts()));

describe("Toasts", () => {
  it("shows a toast with its action, and takes it away when dismissed", async () => {
    const retry = vi.fn();
    render(<Toasts />);
    act(() => {
      showToast({ title: "Could not save", description: "The disk is full. Free some space.", action: { label: "Retry", run: retry } });
    });
    const toast = await screen.findByTestId("toast");
    expect(toast).toHaveTextContent("Could not save");
    expect(toast).toHaveTextContent("The disk is full. Free some space.");
    await userEvent.click(within(toast).getByRole("button", { name: "Retry" }));
    expect(retry).toHaveBeenCalledTimes(1);
    act(() => {
      showToast({ title: "Could not load", description: "Try again." });
    });
    const second = (await screen.findAllByTestId("toast")).find((t) => t.textContent?.includes("Could not load"));
    await userEvent.click(within(second!).getByRole("button", { name: "Dismiss" }));
    await waitFor(() => expect(screen.queryByText("Could not load")).toBeNull());
  });

  it("counts the same note raised again instead of stacking it, and keeps at most MAX_TOASTS", async () => {
    render(<Toasts />);
    act(() => {
      showToast({ title: "Lost", description: "Reconnect." });
      showToast({ title: "Lost", description: "Reconnect." });
    });
    expect(await screen.findAllByTestId("toast")).toHaveLength(1);
    expect(screen.getByTestId("toast")).toHaveTextContent("Lost ×2");
    act(() => {
      for (let i = 0; i < MAX_TOASTS + 3; i++) showToast({ title: `Failure ${i}`, description: "Do something." });
    });
    await waitFor(() => expect(screen.getAllByTestId("toast")).toHaveLength(MAX_TOASTS));
    expect(screen.getAllByTestId("toast").at(-1)).toHaveTextContent(`Failure ${MAX_TOASTS + 2}`);
    expect(screen.queryByText("Lost")).toBeNull();
  });

  it("ends the error as a sentence before the advice", () => {
    expect(sentence("no browser")).toBe("no browser.");
    expect(sentence("no browser.")).toBe("no browser.");
  });

  it("tells the person when cancelling a call failed, and lets them try again", async () => {
    let answer: (r: CallResultView) => void = () => undefined;
    fake.callTool.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    fake.cancelCall.mockRejectedValue(new Error("the engine is stopping"));
    render(
      <>
        <ToolCallPanel serverId="srv-1" tool={makeTool("long", { inputSchema: { type: "object" } })} />
        <Toasts />
      </>,
    );
    await userEvent.click(screen.getByTestId("tool-call-submit"));
    await userEvent.click(await screen.findByTestId("tool-call-cancel"));
    const toast = await screen.findByTestId("toast");
    expect(toast).toHaveTextContent("Could not cancel the call");
    expect(toast).toHaveTextContent("the engine is stopping. It may still finish");
    // The button is back to Cancel, not stuck on "Cancelling…".
    expect(screen.getByTestId("tool-call-cancel")).toHaveTextContent("Cancel");
    expect(screen.getByTestId("tool-call-cancel")).not.toHaveTextContent("Cancelling");
    act(() => answer({ content: [], structuredContent: null, isError: false, schemaProblem: null, cancelled: false }));
  });
});
