// Tests for the Servers list's natural order, search (name, command, URL, tool names),
// keyboard navigation and virtualisation with a hundred servers.

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as fake from "../test/fakeGatehouse";
import { renderWithClient } from "../test/renderWithClient";
import { connected, makeServer, makeTool } from "../test/serverFixtures";
import { ServersPage } from "./ServersPage";
import { movedIndex } from "./ServerList";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

const names = () => screen.getAllByTestId("server-row").map((r) => r.dataset.serverName);
const selectedName = () => screen.getAllByTestId("server-row").find((r) => r.classList.contains("server-row-selected"))?.dataset.serverName;

describe("Servers list", () => {
  it("renders a hundred servers in natural order, only a window of them in the page", async () => {
    fake.listServers.mockResolvedValue(Array.from({ length: 100 }, (_, i) => makeServer(`e${100 - i}`, { state: "disabled" })));
    renderWithClient(<ServersPage />);
    await screen.findAllByTestId("server-row");
    const shown = names();
    expect(shown.slice(0, 4)).toEqual(["e1", "e2", "e3", "e4"]);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBeLessThan(40);
    expect(screen.getByRole("list", { name: "Servers" })).toHaveAttribute("data-count", "100");
  });

  it("filters by a search over names among a hundred, and says when nothing matches", async () => {
    fake.listServers.mockResolvedValue(Array.from({ length: 100 }, (_, i) => makeServer(`e${i + 1}`, { state: "disabled" })));
    renderWithClient(<ServersPage />);
    await screen.findAllByTestId("server-row");
    await userEvent.type(screen.getByRole("searchbox", { name: "Search servers" }), "e10");
    expect(names()).toEqual(["e10", "e100"]);
    await userEvent.type(screen.getByRole("searchbox", { name: "Search servers" }), "x");
    expect(screen.getByTestId("server-search-empty")).toHaveTextContent("No server matches “e10x”");
    await userEvent.click(screen.getByRole("button", { name: "Clear search" }));
    expect(names()[0]).toBe("e1");
  });

  it("finds a connected server by one of its tools' names", async () => {
    const fs = makeServer("files", connected(2));
    const other = makeServer("weather", connected(1));
    fake.listServers.mockResolvedValue([fs, other]);
    fake.listTools.mockImplementation((id) =>
      Promise.resolve(id === fs.config.id ? [makeTool("read_file"), makeTool("write_file")] : [makeTool("forecast")]),
    );
    renderWithClient(<ServersPage />);
    await screen.findAllByTestId("server-row");
    await waitFor(() => expect(fake.listTools).toHaveBeenCalledTimes(2));
    await userEvent.type(screen.getByRole("searchbox", { name: "Search servers" }), "write_");
    await waitFor(() => expect(names()).toEqual(["files"]));
  });

  it("moves the selection with the arrow keys, Home and End, and focuses the row", async () => {
    fake.listServers.mockResolvedValue(["a10", "a2", "a1"].map((n) => makeServer(n, { state: "disabled" })));
    renderWithClient(<ServersPage />);
    await screen.findAllByTestId("server-row");
    const search = screen.getByRole("searchbox", { name: "Search servers" });
    await userEvent.click(search);
    await userEvent.keyboard("{Enter}");
    expect(selectedName()).toBe("a1");
    await waitFor(() => expect(screen.getByRole("button", { name: "a1" })).toHaveFocus());
    await userEvent.keyboard("{ArrowDown}");
    expect(selectedName()).toBe("a2");
    await waitFor(() => expect(screen.getByRole("button", { name: "a2" })).toHaveFocus());
    await userEvent.keyboard("{End}");
    expect(selectedName()).toBe("a10");
    await userEvent.keyboard("{Home}");
    expect(selectedName()).toBe("a1");
    expect(screen.getByTestId("server-detail")).toBeInTheDocument();
  });

  it("focuses the search with / and Ctrl+F, and Escape clears it", async () => {
    fake.listServers.mockResolvedValue([makeServer("alpha", { state: "disabled" }), makeServer("beta", { state: "disabled" })]);
    renderWithClient(<ServersPage />);
    await screen.findAllByTestId("server-row");
    const search = screen.getByRole("searchbox", { name: "Search servers" });
    await userEvent.keyboard("/");
    expect(search).toHaveFocus();
    expect(search).toHaveValue("");
    await userEvent.type(search, "alp");
    expect(names()).toEqual(["alpha"]);
    await userEvent.keyboard("{Escape}");
    expect(search).toHaveValue("");
    expect(names()).toEqual(["alpha", "beta"]);
    search.blur();
    await userEvent.keyboard("{Control>}f{/Control}");
    expect(search).toHaveFocus();
  });

  it("names each key's move, clamped to the list", () => {
    expect(movedIndex("ArrowDown", -1, 3)).toBe(0);
    expect(movedIndex("ArrowDown", 2, 3)).toBe(2);
    expect(movedIndex("ArrowUp", 0, 3)).toBe(0);
    expect(movedIndex("End", 0, 3)).toBe(2);
    expect(movedIndex("Home", 2, 3)).toBe(0);
    expect(movedIndex("a", 0, 3)).toBeNull();
    expect(movedIndex("ArrowDown", -1, 0)).toBeNull();
  });

  it("shows a connected server's protocol revision and what it offers beside its tools", async () => {
    fake.listServers.mockResolvedValue([makeServer("rich", connected(3, "modern", ["tools", "resources", "prompts"]))]);
    renderWithClient(<ServersPage />);
    await screen.findAllByTestId("server-row");
    expect(screen.getByTestId("server-era")).toHaveTextContent("2026-07-28");
    expect(screen.getByTestId("server-offers")).toHaveTextContent("+ resources, prompts");
  });
});
