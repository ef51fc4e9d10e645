// Tests for the servers page: empty state, list rendering with statuses, live events, and row actions.

import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../api/GatehouseError";
import * as fake from "../test/fakeGatehouse";
import { connected, makeServer } from "../test/serverFixtures";
import { ServersPage } from "./ServersPage";
import { renderWithClient } from "../test/renderWithClient";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

const rows = () => screen.getAllByTestId("server-row");
const row = (name: string) => {
  const found = rows().find((r) => r.dataset.serverName === name);
  if (!found) throw new Error(`no row for ${name}`);
  return found;
};

describe("ServersPage", () => {
  it("shows the empty state with exactly one add-server-button when there are no servers", async () => {
    renderWithClient(<ServersPage />);
    const empty = await screen.findByTestId("empty-state");
    expect(empty).toHaveTextContent("No servers yet");
    expect(empty).toHaveTextContent("npx -y @modelcontextprotocol/server-everything");
    expect(screen.getAllByTestId("add-server-button")).toHaveLength(1);
    expect(screen.queryByTestId("server-row")).toBeNull();
  });

  it("opens the add dialog from the empty state", async () => {
    renderWithClient(<ServersPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Add your first server" }));
    expect(screen.getByRole("dialog", { name: "Add server" })).toBeInTheDocument();
    expect(screen.getByTestId("server-name")).toHaveFocus();
  });

  it("lists servers with kind, summary and a status badge per state", async () => {
    const http = { kind: "http" as const, url: "https://mcp.example.com/mcp", transport: "auto" as const, headers: [] };
    fake.listServers.mockResolvedValue([
      makeServer("everything", connected(3)),
      makeServer("remote", { state: "failed", message: "connection refused" }, http),
      makeServer("off", { state: "disabled" }),
      makeServer("slow", { state: "connecting" }),
      makeServer("notes", connected(0, "modern", ["prompts", "resources"])),
    ]);
    renderWithClient(<ServersPage />);
    await screen.findAllByTestId("server-row");

    // In natural order by name, whatever order the engine listed them in.
    expect(rows().map((r) => [r.dataset.serverName, r.dataset.status])).toEqual([
      ["everything", "connected"],
      ["notes", "connected"],
      ["off", "disabled"],
      ["remote", "failed"],
      ["slow", "connecting"],
    ]);
    expect(within(row("everything")).getByTestId("server-status")).toHaveTextContent("Connected · 3 tools");
    expect(within(row("everything")).getByText("npx -y @modelcontextprotocol/server-everything")).toBeInTheDocument();
    const failed = within(row("remote")).getByTestId("server-status");
    expect(failed).toHaveTextContent("Failed");
    expect(failed).toHaveAttribute("title", "Failed: connection refused");
    expect(within(row("remote")).getByText("http")).toBeInTheDocument();
    expect(within(row("remote")).getByText("https://mcp.example.com/mcp")).toBeInTheDocument();
    expect(within(row("off")).getByTestId("server-status")).toHaveTextContent("Disabled");
    expect(within(row("off")).getByTestId("server-toggle")).toHaveAttribute("aria-checked", "false");
    expect(within(row("slow")).getByTestId("server-status")).toHaveTextContent("Connecting…");
    expect(within(row("notes")).getByTestId("server-status")).toHaveTextContent("Connected · prompts, resources");
    expect(screen.queryByTestId("empty-state")).toBeNull();
  });

  it("updates a row's status live from server status events", async () => {
    const server = makeServer("everything", { state: "connecting" });
    fake.listServers.mockResolvedValue([server]);
    renderWithClient(<ServersPage />);
    await screen.findByTestId("server-row");

    // The query cache tells the page of a change on its next tick, hence the async act.
    await act(() => Promise.resolve(fake.emitStatus({ id: server.config.id, status: connected(5) })));
    await waitFor(() => expect(row("everything")).toHaveAttribute("data-status", "connected"));
    expect(within(row("everything")).getByTestId("server-status")).toHaveTextContent("Connected · 5 tools");

    await act(() => Promise.resolve(fake.emitStatus({ id: server.config.id, status: { state: "failed", message: "exited with code 1" } })));
    await waitFor(() => expect(row("everything")).toHaveAttribute("data-status", "failed"));
    expect(fake.listServers).toHaveBeenCalledTimes(1);
  });

  it("toggles a server and re-fetches the list afterwards", async () => {
    const server = makeServer("everything", connected(1));
    const disabled = { config: { ...server.config, enabled: false }, status: { state: "disabled" as const } };
    fake.listServers.mockResolvedValueOnce([server]).mockResolvedValue([disabled]);
    fake.setServerEnabled.mockResolvedValue(disabled);
    renderWithClient(<ServersPage />);
    await screen.findByTestId("server-row");

    await userEvent.click(within(row("everything")).getByTestId("server-toggle"));
    expect(fake.setServerEnabled).toHaveBeenCalledWith(server.config.id, false);
    await waitFor(() => expect(row("everything")).toHaveAttribute("data-status", "disabled"));
    expect(fake.listServers).toHaveBeenCalledTimes(2);
    // Toggling must not open the detail view.
    expect(screen.queryByTestId("server-detail")).toBeNull();
  });

  it("shows the engine's message when an action fails", async () => {
    const server = makeServer("everything", { state: "disabled" });
    fake.listServers.mockResolvedValue([server]);
    fake.setServerEnabled.mockRejectedValue(new GatehouseError("storage", "could not write config"));
    renderWithClient(<ServersPage />);
    await screen.findByTestId("server-row");
    await userEvent.click(within(row("everything")).getByTestId("server-toggle"));
    expect(await screen.findByTestId("page-error")).toHaveTextContent("could not write config");
  });

  it("removes a server only after confirmation", async () => {
    const server = makeServer("doomed", { state: "disabled" });
    fake.listServers.mockResolvedValueOnce([server]).mockResolvedValue([]);
    fake.removeServer.mockResolvedValue(null);
    renderWithClient(<ServersPage />);
    await screen.findByTestId("server-row");

    await userEvent.click(within(row("doomed")).getByTestId("server-remove"));
    const dialog = screen.getByRole("alertdialog", { name: "Remove server?" });
    expect(dialog).toHaveTextContent("doomed");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(fake.removeServer).not.toHaveBeenCalled();
    expect(screen.getByTestId("server-row")).toBeInTheDocument();

    await userEvent.click(within(row("doomed")).getByTestId("server-remove"));
    await userEvent.click(screen.getByTestId("confirm-remove"));
    expect(fake.removeServer).toHaveBeenCalledWith(server.config.id);
    expect(await screen.findByTestId("empty-state")).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("opens the detail view when a row is clicked", async () => {
    fake.listServers.mockResolvedValue([makeServer("a", { state: "disabled" }), makeServer("b", { state: "disabled" })]);
    renderWithClient(<ServersPage />);
    await screen.findAllByTestId("server-row");
    await userEvent.click(within(row("b")).getByText("b"));
    const detail = screen.getByTestId("server-detail");
    expect(within(detail).getByRole("heading", { level: 2 })).toHaveTextContent("b");
  });

  it("shows a retryable error instead of the empty state when the list cannot be loaded", async () => {
    fake.listServers.mockRejectedValueOnce(new GatehouseError("storage", "config file is corrupt")).mockResolvedValue([]);
    renderWithClient(<ServersPage />);
    expect(await screen.findByText("config file is corrupt")).toBeInTheDocument();
    expect(screen.queryByTestId("empty-state")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByTestId("empty-state")).toBeInTheDocument();
  });
});
