// Tests for a server's Logs tab: the kept lines, new lines as the engine announces them (once
// each), the filter, pause and follow; and long server text cut in the detail view.

import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { LogLine } from "../api/gatehouse";
import * as fake from "../test/fakeGatehouse";
import { giveElementsASize, renderWithClient } from "../test/renderWithClient";
import { connected, makeServer, makeTool } from "../test/serverFixtures";
import { ServerDetail } from "./ServerDetail";
import { ServerLogs } from "./ServerLogs";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

let restoreSize: () => void;
beforeAll(() => {
  restoreSize = giveElementsASize();
});
afterAll(() => restoreSize());
beforeEach(() => fake.resetFakeGatehouse());

function line(seq: number, text: string): LogLine {
  return { seq, time: `2026-05-01T12:00:0${seq % 10}.000Z`, line: text };
}

function shownLines(): string[] {
  return screen.queryAllByTestId("log-line").map((l) => l.textContent ?? "");
}

describe("ServerLogs", () => {
  it("shows the kept lines, then new ones once each", async () => {
    fake.serverLogs.mockResolvedValue([line(1, "starting with TOKEN=[redacted]"), line(2, "ready")]);
    render(<ServerLogs serverId="s1" />);
    await waitFor(() => expect(shownLines()).toHaveLength(2));
    expect(fake.serverLogs).toHaveBeenCalledWith("s1", 10_000);
    expect(shownLines()[0]).toContain("12:00:01.000 starting with TOKEN=[redacted]");

    act(() => {
      // Line 2 was read already; another server's lines are not this one's.
      fake.emitServerLog({ id: "s1", lines: [line(2, "ready"), line(3, "called echo")], missed: 0 });
      fake.emitServerLog({ id: "s2", lines: [line(9, "other server")], missed: 0 });
    });
    await waitFor(() => expect(shownLines()).toHaveLength(3));
    expect(shownLines()[2]).toContain("called echo");
  });

  it("filters the lines and pauses on request", async () => {
    fake.serverLogs.mockResolvedValue([line(1, "alpha"), line(2, "beta"), line(3, "alphabet")]);
    render(<ServerLogs serverId="s1" />);
    await waitFor(() => expect(shownLines()).toHaveLength(3));
    await userEvent.type(screen.getByRole("searchbox", { name: "Filter log lines" }), "ALPHA");
    expect(shownLines().map((l) => l.slice(13))).toEqual(["alpha", "alphabet"]);
    await userEvent.clear(screen.getByRole("searchbox", { name: "Filter log lines" }));

    await userEvent.click(screen.getByTestId("logs-pause"));
    act(() => fake.emitServerLog({ id: "s1", lines: [line(4, "while paused")], missed: 2 }));
    expect(await screen.findByTestId("logs-resume")).toHaveTextContent("Follow (1 new)");
    expect(shownLines()).toHaveLength(3);
    expect(screen.getByTestId("logs-missed")).toHaveTextContent("2 lines were dropped");
    await userEvent.click(screen.getByTestId("logs-resume"));
    await waitFor(() => expect(shownLines()).toHaveLength(4));
  });

  it("cuts a very long line for display", async () => {
    fake.serverLogs.mockResolvedValue([line(1, "x".repeat(70_000))]);
    render(<ServerLogs serverId="s1" />);
    await waitFor(() => expect(shownLines()).toHaveLength(1));
    expect(shownLines()[0]?.length).toBeLessThan(2100);
  });

  it("is a tab of the server detail, and unsubscribes when it closes", async () => {
    fake.serverLogs.mockResolvedValue([line(1, "hello from stderr")]);
    const view = makeServer("everything", connected(0));
    renderWithClient(<ServerDetail view={view} busy={false} onReconnect={vi.fn()} onEnable={vi.fn()} onEdit={vi.fn()} onClose={vi.fn()} />);
    expect(fake.logsSubscriberCount()).toBe(0);
    await userEvent.click(screen.getByTestId("tab-logs"));
    await waitFor(() => expect(shownLines()).toEqual([expect.stringContaining("hello from stderr")]));
    expect(fake.serverLogs).toHaveBeenCalledWith(view.config.id, 10_000);
    expect(fake.logsSubscriberCount()).toBe(1);
    await userEvent.click(screen.getByTestId("tab-overview"));
    expect(fake.logsSubscriberCount()).toBe(0);
  });
});

describe("long server text in the detail view", () => {
  it("cuts a tool name of 200,000 characters", async () => {
    fake.listTools.mockResolvedValue([
      makeTool("n".repeat(200_000), { title: "t".repeat(200_000), description: "d".repeat(200_000) }),
    ]);
    const view = makeServer("everything", connected(1));
    renderWithClient(<ServerDetail view={view} busy={false} onReconnect={vi.fn()} onEnable={vi.fn()} onEdit={vi.fn()} onClose={vi.fn()} />);
    const item = await screen.findByTestId("tool-item");
    const name = item.querySelector(".tool-name");
    expect(name?.textContent?.length).toBeLessThanOrEqual(200);
    expect(name?.textContent?.endsWith("…")).toBe(true);
    expect(within(item).getByText(/^t+…$/).textContent?.length).toBeLessThanOrEqual(200);
    expect(item.querySelector(".tool-description")?.textContent?.length).toBeLessThanOrEqual(2000);
  });
});
