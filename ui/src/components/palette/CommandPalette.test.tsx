// Tests for the command palette in the window: the shortcut and the header's button open it,
// the arrows move through the results and Enter opens one, Escape closes it, and choosing a
// page, a server or a tool leads there (a tool with its Call form open). Tools come from the
// servers the window already knows.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppFrame } from "../../App";
import { chainReport } from "../../test/auditFixtures";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { connected, makeServer, makeTool } from "../../test/serverFixtures";
import { isPaletteShortcut } from "./usePaletteShortcut";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

const everything = makeServer("everything", connected(2));
const other = makeServer("filesystem", connected(1));

beforeEach(() => {
  fake.resetFakeGatehouse();
  fake.listServers.mockResolvedValue([everything, other]);
  fake.listTools.mockImplementation((id) =>
    Promise.resolve(id === everything.config.id ? [makeTool("echo"), makeTool("get-tiny-image")] : [makeTool("read_file")]),
  );
});

const options = () => within(screen.getByRole("listbox", { name: "Results" })).queryAllByRole("option");
const activeOption = () => options().find((o) => o.getAttribute("aria-selected") === "true");

async function openPalette() {
  renderWithClient(<AppFrame />, "/servers");
  await screen.findByRole("heading", { level: 1, name: /Servers/ });
  await userEvent.keyboard("{Control>}k{/Control}");
  return screen.findByRole("combobox", { name: /Search pages, servers, tools and actions/ });
}

describe("CommandPalette", () => {
  it("opens with Ctrl+K, lists the pages first with no query, and closes with Escape", async () => {
    const input = await openPalette();
    expect(input).toHaveFocus();
    const groups = within(screen.getByRole("listbox")).getAllByRole("group");
    expect(groups.map((g) => g.getAttribute("aria-labelledby"))).toEqual(["palette-group-Pages", "palette-group-Actions", "palette-group-Servers"]);
    expect(within(groups[0]!).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Servers",
      "Approvals",
      "Audit",
      "Policies",
      "Clients",
      "Settings",
    ]);
    // The keys are listed in the palette, and describe it.
    expect(screen.getByTestId("command-palette")).toHaveAccessibleDescription(/Enter open · Esc close · Ctrl\+K palette/);
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId("command-palette")).toBeNull());
  });

  it("opens from the header's button", async () => {
    renderWithClient(<AppFrame />, "/servers");
    await userEvent.click(screen.getByRole("button", { name: /Go to/ }));
    expect(await screen.findByTestId("command-palette")).toBeInTheDocument();
  });

  it("moves with the arrows, wraps around, and opens the highlighted page with Enter", async () => {
    const input = await openPalette();
    await userEvent.type(input, "s");
    const first = activeOption();
    expect(first).toBeDefined();
    expect(input).toHaveAttribute("aria-activedescendant", first?.id);
    await userEvent.keyboard("{ArrowUp}");
    expect(activeOption()).toBe(options().at(-1));
    await userEvent.keyboard("{ArrowDown}");
    expect(activeOption()).toBe(first);

    await userEvent.clear(input);
    await userEvent.type(input, "setng");
    expect(activeOption()).toHaveTextContent("Settings");
    await userEvent.keyboard("{Enter}");
    expect(await screen.findByRole("heading", { level: 1, name: "Settings" })).toBeInTheDocument();
    expect(screen.queryByTestId("command-palette")).toBeNull();
  });

  it("says so when nothing matches, and Enter then does nothing", async () => {
    const input = await openPalette();
    await userEvent.type(input, "qqqzz");
    expect(options()).toHaveLength(0);
    expect(screen.getByRole("status")).toHaveTextContent("Nothing matches “qqqzz”.");
    await userEvent.keyboard("{Enter}");
    expect(screen.getByTestId("command-palette")).toBeInTheDocument();
  });

  it("opens a server's detail", async () => {
    const input = await openPalette();
    await userEvent.type(input, "filesys");
    expect(activeOption()).toHaveTextContent("filesystem");
    await userEvent.keyboard("{Enter}");
    expect(await screen.findByRole("heading", { level: 2, name: "filesystem" })).toBeInTheDocument();
  });

  it("finds a tool of a server the window knows and opens its Call form", async () => {
    const input = await openPalette();
    await userEvent.type(input, "tiny");
    await waitFor(() => expect(activeOption()).toHaveTextContent("get-tiny-image"));
    expect(activeOption()).toHaveTextContent("everything");
    await userEvent.keyboard("{Enter}");
    expect(await screen.findByRole("heading", { level: 2, name: "everything" })).toBeInTheDocument();
    const item = (await screen.findAllByTestId("tool-item")).find((i) => i.dataset.toolName === "get-tiny-image");
    expect(item).toBeDefined();
    const call = within(item!).getByTestId("tool-call-button");
    expect(call).toHaveAttribute("aria-expanded", "true");
    // Closing the form takes the tool out of the URL; the server stays open.
    await userEvent.click(call);
    expect(call).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByRole("heading", { level: 2, name: "everything" })).toBeInTheDocument();
  });

  it("runs the add-server action", async () => {
    const input = await openPalette();
    await userEvent.type(input, "add serv");
    expect(activeOption()).toHaveTextContent("Add server");
    await userEvent.keyboard("{Enter}");
    const dialog = await screen.findByRole("dialog", { name: /Add server/ });
    // Cancelled, it stays closed (the URL no longer asks for it).
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("switches the theme without leaving the page", async () => {
    document.documentElement.dataset.theme = "light";
    const input = await openPalette();
    await userEvent.type(input, "theme dark");
    expect(activeOption()).toHaveTextContent("Theme: dark");
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("dark"));
    expect(screen.getByRole("heading", { level: 1, name: /Servers/ })).toBeInTheDocument();
    await userEvent.keyboard("{Control>}k{/Control}");
    await userEvent.type(await screen.findByRole("combobox", { name: /Search pages/ }), "theme light");
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("light"));
    window.localStorage.removeItem("gatehouse.theme");
  });

  it("runs the verify-the-audit-chain action on the Audit page", async () => {
    fake.auditVerify.mockResolvedValue(chainReport(3));
    const input = await openPalette();
    await userEvent.type(input, "verify");
    await userEvent.keyboard("{Enter}");
    expect(await screen.findByRole("heading", { level: 1, name: /Audit log/ })).toBeInTheDocument();
    await waitFor(() => expect(fake.auditVerify).toHaveBeenCalledTimes(1));
  });
});

describe("isPaletteShortcut", () => {
  const key = (init: KeyboardEventInit) => new KeyboardEvent("keydown", init);
  it("is Ctrl+K off macOS and Cmd+K on macOS, nothing else", () => {
    expect(isPaletteShortcut(key({ key: "k", ctrlKey: true }), false)).toBe(true);
    expect(isPaletteShortcut(key({ key: "K", ctrlKey: true }), false)).toBe(true);
    expect(isPaletteShortcut(key({ key: "k", metaKey: true }), false)).toBe(false);
    expect(isPaletteShortcut(key({ key: "k", metaKey: true }), true)).toBe(true);
    expect(isPaletteShortcut(key({ key: "k", ctrlKey: true }), true)).toBe(false);
    expect(isPaletteShortcut(key({ key: "k", ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(isPaletteShortcut(key({ key: "j", ctrlKey: true }), false)).toBe(false);
  });
});
