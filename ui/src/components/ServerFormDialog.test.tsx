// Tests for the add/edit dialog: validation, engine errors, keeping input, and the add flow end to end.

import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerInput } from "../api/gatehouse";
import { GatehouseError } from "../api/GatehouseError";
import { emptyFormValues, formValuesFromConfig } from "../model/serverFormValues";
import * as fake from "../test/fakeGatehouse";
import { connected, makeServer } from "../test/serverFixtures";
import { ServerFormDialog } from "./ServerFormDialog";
import { ServersPage } from "./ServersPage";
import { renderWithClient } from "../test/renderWithClient";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

function renderDialog(onSubmit = vi.fn<(input: ServerInput) => Promise<void>>().mockResolvedValue(undefined)) {
  const onClose = vi.fn();
  render(<ServerFormDialog mode="add" initialValues={emptyFormValues()} onSubmit={onSubmit} onClose={onClose} />);
  return { onSubmit, onClose };
}

describe("ServerFormDialog", () => {
  it("blocks submission and lists client-side errors", async () => {
    const { onSubmit } = renderDialog();
    await userEvent.type(screen.getByTestId("server-env"), "NOEQUALS");
    await userEvent.click(screen.getByTestId("server-save"));
    const error = screen.getByTestId("server-form-error");
    expect(error).toHaveTextContent("name must not be empty");
    expect(error).toHaveTextContent("command must not be empty");
    expect(error).toHaveTextContent("environment line 1");
    expect(screen.getByTestId("server-name")).toHaveAttribute("aria-invalid", "true");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("submits a stdio server built from the fields", async () => {
    const { onSubmit } = renderDialog();
    await userEvent.type(screen.getByTestId("server-name"), "everything");
    await userEvent.type(screen.getByTestId("server-command"), "npx");
    await userEvent.type(screen.getByTestId("server-args"), "-y{enter}@modelcontextprotocol/server-everything");
    await userEvent.type(screen.getByTestId("server-env"), "DEBUG=1");
    await userEvent.type(screen.getByTestId("server-cwd"), "/tmp");
    await userEvent.click(screen.getByTestId("server-enabled"));
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit).toHaveBeenCalledWith({
      name: "everything",
      enabled: false,
      roots: [],
      spec: {
        kind: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-everything"],
        env: [{ key: "DEBUG", value: "1", secret: false }],
        cwd: "/tmp",
        stop: { stdinMs: 2000, termMs: 3000 },
      },
    });
  });

  it("submits an http server with transport and headers, defaulting to enabled and auto", async () => {
    const { onSubmit } = renderDialog();
    expect(screen.getByTestId("server-enabled")).toBeChecked();
    await userEvent.type(screen.getByTestId("server-name"), "remote");
    await userEvent.click(screen.getByTestId("server-kind-http"));
    expect(screen.queryByTestId("server-command")).toBeNull();
    expect(screen.getByTestId("server-transport")).toHaveValue("auto");
    await userEvent.type(screen.getByTestId("server-url"), "ftp://nope");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(screen.getByTestId("server-form-error")).toHaveTextContent("url must be http(s)");
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByTestId("server-url"));
    await userEvent.type(screen.getByTestId("server-url"), "http://127.0.0.1:3000/mcp");
    await userEvent.selectOptions(screen.getByTestId("server-transport"), "sse");
    await userEvent.type(screen.getByTestId("server-headers"), "Authorization: Bearer t");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit).toHaveBeenCalledWith({
      name: "remote",
      enabled: true,
      roots: [],
      spec: {
        kind: "http",
        url: "http://127.0.0.1:3000/mcp",
        transport: "sse",
        headers: [{ name: "Authorization", value: "Bearer t", secret: false }],
      },
    });
  });

  it("keeps what was typed for the other kind when switching back and forth", async () => {
    renderDialog();
    await userEvent.type(screen.getByTestId("server-command"), "uvx");
    await userEvent.click(screen.getByTestId("server-kind-http"));
    await userEvent.type(screen.getByTestId("server-url"), "https://h/mcp");
    await userEvent.click(screen.getByTestId("server-kind-stdio"));
    expect(screen.getByTestId("server-command")).toHaveValue("uvx");
    await userEvent.click(screen.getByTestId("server-kind-http"));
    expect(screen.getByTestId("server-url")).toHaveValue("https://h/mcp");
  });

  it("shows the engine's error and keeps every field as typed", async () => {
    const onSubmit = vi
      .fn<(input: ServerInput) => Promise<void>>()
      .mockRejectedValue(new GatehouseError("duplicate_name", "a server named everything already exists"));
    const { onClose } = renderDialog(onSubmit);
    await userEvent.type(screen.getByTestId("server-name"), "everything");
    await userEvent.type(screen.getByTestId("server-command"), "npx");
    await userEvent.type(screen.getByTestId("server-args"), "-y");
    await userEvent.click(screen.getByTestId("server-save"));

    expect(await screen.findByTestId("server-form-error")).toHaveTextContent("a server named everything already exists");
    expect(screen.getByTestId("server-name")).toHaveValue("everything");
    expect(screen.getByTestId("server-name")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByTestId("server-command")).toHaveValue("npx");
    expect(screen.getByTestId("server-args")).toHaveValue("-y");
    expect(screen.getByTestId("server-save")).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("pre-fills the edit form from the saved config", () => {
    const server = makeServer("everything", connected(1), {
      kind: "stdio",
      command: "npx",
      args: ["-y", "pkg"],
      env: [{ key: "A", value: "1", secret: false }],
      cwd: "/srv",
    });
    render(
      <ServerFormDialog mode="edit" initialValues={formValuesFromConfig(server.config)} onSubmit={vi.fn()} onClose={vi.fn()} />,
    );
    expect(screen.getByRole("dialog", { name: "Edit everything" })).toBeInTheDocument();
    expect(screen.getByTestId("server-args")).toHaveValue("-y\npkg");
    expect(screen.getByTestId("server-env")).toHaveValue("A=1");
    expect(screen.getByTestId("server-cwd")).toHaveValue("/srv");
  });

  it("closes on Escape", async () => {
    const { onClose } = renderDialog();
    await userEvent.keyboard("{Escape}");
    expect(onClose).toHaveBeenCalled();
  });
});

describe("adding a server from the page", () => {
  it("saves, closes the dialog, re-fetches and shows the new server's detail", async () => {
    const created = makeServer("everything", { state: "connecting" });
    fake.listServers.mockResolvedValueOnce([]).mockResolvedValue([created]);
    fake.addServer.mockResolvedValue(created);
    renderWithClient(<ServersPage />);
    await userEvent.click(await screen.findByTestId("add-server-button"));
    await userEvent.type(screen.getByTestId("server-name"), "everything");
    await userEvent.type(screen.getByTestId("server-command"), "npx");
    await userEvent.click(screen.getByTestId("server-save"));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(fake.addServer).toHaveBeenCalledWith(expect.objectContaining({ name: "everything" }));
    expect(fake.listServers).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId("server-row")).toHaveAttribute("data-server-name", "everything");
    expect(within(screen.getByTestId("server-detail")).getByRole("heading", { level: 2 })).toHaveTextContent("everything");
  });

  it("edits a server through updateServer", async () => {
    const server = makeServer("everything", connected(2));
    fake.listServers.mockResolvedValue([server]);
    fake.updateServer.mockResolvedValue({ ...server, config: { ...server.config, name: "renamed" } });
    renderWithClient(<ServersPage />);
    await userEvent.click(await screen.findByTestId("server-edit"));
    await userEvent.clear(screen.getByTestId("server-name"));
    await userEvent.type(screen.getByTestId("server-name"), "renamed");
    await userEvent.click(screen.getByTestId("server-save"));
    await waitFor(() => expect(fake.updateServer).toHaveBeenCalledWith(server.config.id, expect.objectContaining({ name: "renamed" })));
  });
});
