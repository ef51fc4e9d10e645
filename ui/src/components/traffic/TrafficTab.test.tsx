// Tests for a server's Traffic tab: the kept messages, new ones once each, the view's bound,
// the method and direction filters, pause (counting what arrives), the message pane with Copy
// and the truncation marker, and the redacted text shown as the engine sent it.

import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { TrafficEntry } from "../../api/gatehouse";
import * as fake from "../../test/fakeGatehouse";
import { giveElementsASize, renderWithClient } from "../../test/renderWithClient";
import { connected, makeServer } from "../../test/serverFixtures";
import { ServerDetail } from "../ServerDetail";
import { TrafficTab } from "./TrafficTab";
import { appendBounded, MAX_ENTRIES } from "./trafficModel";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

let restoreSize: () => void;
beforeAll(() => {
  restoreSize = giveElementsASize();
});
afterAll(() => restoreSize());
beforeEach(() => fake.resetFakeGatehouse());

function entry(seq: number, fields: Partial<TrafficEntry> = {}): TrafficEntry {
  const method = fields.method ?? "tools/call";
  return {
    seq,
    time: "2026-05-01T12:00:01.250Z",
    direction: "sent",
    method,
    id: String(seq),
    latencyMs: null,
    size: 40,
    message: JSON.stringify({ jsonrpc: "2.0", id: seq, method }),
    truncated: false,
    ...fields,
  };
}

function page(entries: TrafficEntry[], dropped = 0) {
  return { entries, dropped, lastSeq: entries.at(-1)?.seq ?? 0 };
}

function rows(): string[] {
  return screen.queryAllByTestId("traffic-row").map((r) => r.textContent ?? "");
}

describe("TrafficTab", () => {
  it("shows the kept messages, then new ones once each", async () => {
    fake.serverTraffic.mockResolvedValue(page([entry(1, { method: "initialize" }), entry(2, { direction: "received", method: "initialize", latencyMs: 12.4 })]));
    render(<TrafficTab serverId="s1" />);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(fake.serverTraffic).toHaveBeenCalledWith("s1", 0, MAX_ENTRIES);
    expect(rows()[1]).toContain("initialize");
    expect(rows()[1]).toContain("12 ms");
    expect(rows()[1]).toContain("40 B");
    act(() => {
      fake.emitServerTraffic({ id: "s1", entries: [entry(2), entry(3, { method: "tools/list" })], missed: 0, dropped: 0 });
      fake.emitServerTraffic({ id: "s2", entries: [entry(9, { method: "other/server" })], missed: 0, dropped: 0 });
    });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[2]).toContain("tools/list");
    expect(rows().join()).not.toContain("other/server");
  });

  it("holds at most as many messages as the engine keeps", () => {
    const many = Array.from({ length: MAX_ENTRIES + 500 }, (_, i) => entry(i + 1));
    const held = appendBounded([], many);
    expect(held).toHaveLength(MAX_ENTRIES);
    expect(held[0]?.seq).toBe(501);
    expect(appendBounded(held, [entry(MAX_ENTRIES + 500)])).toBe(held);
  });

  it("bounds a flood in the view and says messages were dropped", async () => {
    fake.serverTraffic.mockResolvedValue(page([entry(1)], 3));
    render(<TrafficTab serverId="s1" />);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByTestId("traffic-dropped")).toHaveTextContent("3 older messages were dropped");
    act(() =>
      fake.emitServerTraffic({
        id: "s1",
        entries: Array.from({ length: MAX_ENTRIES + 10 }, (_, i) => entry(i + 2)),
        missed: 4,
        dropped: 3,
      }),
    );
    await waitFor(() => expect(screen.getByTestId("traffic-dropped")).toHaveTextContent("7 older messages"));
    // The table is virtualised: only the rows on screen are in the document.
    expect(rows().length).toBeLessThan(100);
    expect(screen.getByTestId("traffic-body")).toHaveAttribute("aria-rowcount", String(MAX_ENTRIES));
  });

  it("filters by method and direction", async () => {
    fake.serverTraffic.mockResolvedValue(
      page([
        entry(1, { method: "tools/list" }),
        entry(2, { method: "tools/list", direction: "received" }),
        entry(3, { method: "resources/read" }),
        entry(4, { method: "notifications/message", direction: "received", id: null }),
      ]),
    );
    render(<TrafficTab serverId="s1" />);
    await waitFor(() => expect(rows()).toHaveLength(4));
    await userEvent.type(screen.getByRole("searchbox", { name: "Filter messages by method" }), "TOOLS");
    expect(rows()).toHaveLength(2);
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Direction" }), "received");
    expect(rows()).toHaveLength(1);
    await userEvent.clear(screen.getByRole("searchbox", { name: "Filter messages by method" }));
    expect(rows()).toHaveLength(2);
    expect(rows()[1]).toContain("notifications/message");
    await userEvent.type(screen.getByRole("searchbox", { name: "Filter messages by method" }), "nothing");
    expect(screen.getByText("No message matches the filter.")).toBeInTheDocument();
  });

  it("pauses, counting what arrives meanwhile, and resumes", async () => {
    fake.serverTraffic.mockResolvedValue(page([entry(1)]));
    render(<TrafficTab serverId="s1" />);
    await waitFor(() => expect(rows()).toHaveLength(1));
    await userEvent.click(screen.getByRole("button", { name: "Pause" }));
    act(() => fake.emitServerTraffic({ id: "s1", entries: [entry(2), entry(3)], missed: 0, dropped: 0 }));
    expect(await screen.findByTestId("traffic-resume")).toHaveTextContent("Resume (2 new)");
    expect(rows()).toHaveLength(1);
    await userEvent.click(screen.getByTestId("traffic-resume"));
    await waitFor(() => expect(rows()).toHaveLength(3));
  });

  it("opens a message as the engine redacted it, and copies it", async () => {
    const message = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { structuredContent: { token: "[redacted]" }, text: "key [redacted]" } });
    fake.serverTraffic.mockResolvedValue(page([entry(7, { direction: "received", message, latencyMs: 3 })]));
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<TrafficTab serverId="s1" />);
    await waitFor(() => expect(rows()).toHaveLength(1));
    await userEvent.click(screen.getAllByTestId("traffic-row")[0]!);
    const pane = screen.getByTestId("traffic-message");
    expect(within(pane).getByRole("heading")).toHaveTextContent("Received tools/call · id 7");
    const body = within(pane).getByTestId("traffic-message-body").textContent ?? "";
    expect(body).toContain('"token": "[redacted]"');
    expect(body).toContain("key [redacted]");
    await userEvent.click(within(pane).getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith(body);
    expect(within(pane).getByTestId("traffic-copy")).toHaveTextContent("Copied");
    await userEvent.click(within(pane).getByRole("button", { name: "Close message" }));
    expect(screen.queryByTestId("traffic-message")).toBeNull();
  });

  it("marks a message the engine cut short", async () => {
    const cut = '{"jsonrpc":"2.0","method":"notifications/big","params":{"pad":"yyyy';
    fake.serverTraffic.mockResolvedValue(page([entry(1, { direction: "received", message: cut, size: 409_650, truncated: true })]));
    render(<TrafficTab serverId="s1" />);
    await waitFor(() => expect(rows()).toHaveLength(1));
    await userEvent.click(screen.getAllByTestId("traffic-row")[0]!);
    expect(screen.getByTestId("traffic-truncated")).toHaveTextContent("of 400.0 KiB are kept");
    expect(screen.getByTestId("traffic-message-body")).toHaveTextContent(cut);
  });

  it("is a tab of the server detail, subscribed only while open", async () => {
    fake.serverTraffic.mockResolvedValue(page([entry(1, { method: "initialize" })]));
    const view = makeServer("everything", connected(0));
    renderWithClient(<ServerDetail view={view} busy={false} onReconnect={vi.fn()} onEnable={vi.fn()} onEdit={vi.fn()} onClose={vi.fn()} />);
    expect(fake.trafficSubscriberCount()).toBe(0);
    await userEvent.click(screen.getByTestId("tab-traffic"));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(fake.serverTraffic).toHaveBeenCalledWith(view.config.id, 0, MAX_ENTRIES);
    expect(fake.trafficSubscriberCount()).toBe(1);
    await userEvent.click(screen.getByTestId("tab-overview"));
    expect(fake.trafficSubscriberCount()).toBe(0);
  });
});
