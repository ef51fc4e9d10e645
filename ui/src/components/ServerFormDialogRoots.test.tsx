// Tests for the roots field of the add/edit dialog: present for both kinds, sent as typed,
// validated client-side, pre-filled as plain paths, and sent through updateServer on edit.

import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { formValuesFromConfig } from "../model/serverFormValues";
import * as fake from "../test/fakeGatehouse";
import { renderAddForm } from "../test/renderAddForm";
import { connected, httpSpecWithSecrets, makeServer } from "../test/serverFixtures";
import { ServerFormDialog } from "./ServerFormDialog";
import { ServersPage } from "./ServersPage";
import { renderWithClient } from "../test/renderWithClient";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

async function fillRequired(kind: "stdio" | "http") {
  await userEvent.type(screen.getByTestId("server-name"), "files");
  await userEvent.click(screen.getByTestId(`server-kind-${kind}`));
  if (kind === "stdio") await userEvent.type(screen.getByTestId("server-command"), "npx");
  else await userEvent.type(screen.getByTestId("server-url"), "https://h/mcp");
}

describe("roots in the server form", () => {
  it.each(["stdio", "http"] as const)("offers a labelled roots field for a %s server and sends its lines", async (kind) => {
    const onSubmit = renderAddForm();
    await fillRequired(kind);
    const roots = screen.getByRole("textbox", { name: "Roots (directories the server may use)" });
    expect(roots).toHaveAttribute("data-testid", "server-roots");
    expect(roots).toHaveAccessibleDescription("Absolute paths or file:// URIs. The server is told when you change them.");
    await userEvent.type(roots, "/home/me/project{enter}{enter}file:///tmp/x{enter}/home/me/project");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: "files", roots: ["/home/me/project", "file:///tmp/x"] });
  });

  it("sends an empty list when no roots are given", async () => {
    const onSubmit = renderAddForm();
    await fillRequired("stdio");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit.mock.calls[0]?.[0].roots).toEqual([]);
  });

  it("blocks a relative root with the engine's message on the field, and saves once fixed", async () => {
    const onSubmit = renderAddForm();
    await fillRequired("http");
    const roots = screen.getByTestId("server-roots");
    await userEvent.type(roots, "/ok{enter}projects/site");
    await userEvent.click(screen.getByTestId("server-save"));
    const message = "the root `projects/site` must be an absolute path or a file:// URI";
    expect(screen.getByTestId("server-form-error")).toHaveTextContent(message);
    expect(roots).toHaveAttribute("aria-invalid", "true");
    expect(roots).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.clear(roots);
    expect(roots).not.toHaveAttribute("aria-invalid");
    await userEvent.type(roots, "/ok{enter}/projects/site");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit.mock.calls[0]?.[0].roots).toEqual(["/ok", "/projects/site"]);
  });

  it("pre-fills the edit form with the saved roots as plain paths", () => {
    const config = makeServer("files", connected(1), httpSpecWithSecrets(), [
      "file:///home/me/project",
      "file:///home/me/My%20Notes",
    ]).config;
    render(<ServerFormDialog mode="edit" initialValues={formValuesFromConfig(config)} onSubmit={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByTestId("server-roots")).toHaveValue("/home/me/project\n/home/me/My Notes");
  });

  it("sends edited roots through updateServer from the page", async () => {
    const server = makeServer("files", connected(2), undefined, ["file:///home/me/project"]);
    fake.listServers.mockResolvedValue([server]);
    fake.updateServer.mockResolvedValue(server);
    renderWithClient(<ServersPage />);
    await userEvent.click(await screen.findByTestId("server-edit"));
    const dialog = screen.getByRole("dialog");
    await userEvent.type(within(dialog).getByTestId("server-roots"), "{enter}/srv/shared");
    await userEvent.click(within(dialog).getByTestId("server-save"));
    await waitFor(() =>
      expect(fake.updateServer).toHaveBeenCalledWith(
        server.config.id,
        expect.objectContaining({ roots: ["/home/me/project", "/srv/shared"], spec: server.config.spec }),
      ),
    );
  });
});
