// Tests for the first run: the empty Servers page offers three ways to start; trying the demo
// server adds it, selects it, opens its echo tool's Call form once its tools are listed, and
// points to the Audit page; a failure to add it says why; and a new server's form starts with
// the engine's default stop graces.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../api/GatehouseError";
import * as fake from "../test/fakeGatehouse";
import { renderWithClient } from "../test/renderWithClient";
import { connected, makeServer, makeTool } from "../test/serverFixtures";
import { ServersPage } from "./ServersPage";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

describe("the first run", () => {
  it("offers adding a server, importing from an agent, and the demo server", async () => {
    renderWithClient(<ServersPage />);
    const empty = await screen.findByTestId("empty-state");
    expect(within(empty).getByRole("button", { name: "Add your first server" })).toBeInTheDocument();
    expect(within(empty).getByRole("button", { name: "Import from an agent" })).toBeInTheDocument();
    expect(within(empty).getByRole("button", { name: "Try the demo server" })).toBeInTheDocument();
  });

  it("adds the demo server, opens its echo tool's Call form and points to the Audit page", async () => {
    const demo = makeServer("demo", connected(3));
    fake.addDemoServer.mockResolvedValue(demo);
    fake.listTools.mockResolvedValue([makeTool("echo"), makeTool("add"), makeTool("current_time")]);
    renderWithClient(<ServersPage />);
    const tryDemo = await screen.findByRole("button", { name: "Try the demo server" });
    fake.listServers.mockResolvedValue([demo]);
    await userEvent.click(tryDemo);

    await waitFor(() => expect(fake.addDemoServer).toHaveBeenCalledTimes(1));
    const echo = await waitFor(() => {
      const item = screen.getAllByTestId("tool-item").find((i) => i.dataset.toolName === "echo");
      if (item === undefined) throw new Error("no echo tool yet");
      return item;
    });
    // The URL naming the tool follows the selection in a transition.
    await waitFor(() => expect(within(echo).getByTestId("tool-call-button")).toHaveAttribute("aria-expanded", "true"));
    const [add] = screen.getAllByTestId("tool-item").filter((i) => i.dataset.toolName === "add");
    if (add === undefined) throw new Error("no add tool");
    expect(within(add).getByTestId("tool-call-button")).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByTestId("first-run-audit-link")).toHaveAttribute("href", "#/audit");
  });

  it("says why the demo server could not be added", async () => {
    fake.addDemoServer.mockRejectedValue(new GatehouseError("validation", "the gatehouse binary's path is not UTF-8"));
    renderWithClient(<ServersPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Try the demo server" }));
    expect(await screen.findByText(/Could not add the demo server: the gatehouse binary's path is not UTF-8/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try the demo server" })).toBeEnabled();
  });

  it("starts a new server's form with the engine's default stop graces", async () => {
    fake.engineSettings.mockResolvedValue({ ...fake.ENGINE_DEFAULTS, stopStdinMs: 500, stopTermMs: 10_000 });
    renderWithClient(<ServersPage />);
    await waitFor(() => expect(fake.engineSettings).toHaveBeenCalled());
    await userEvent.click(await screen.findByRole("button", { name: "Add your first server" }));
    await waitFor(() => expect(screen.getByTestId("server-stop-grace")).toHaveValue("0.5"));
    expect(screen.getByTestId("server-term-grace")).toHaveValue("10");
  });
});
