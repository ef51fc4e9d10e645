// Tests for the secret env var / header fields of the add/edit dialog: masking and Show toggle,
// secret entries in the submitted input, keep-on-empty when editing, and client-side errors.

import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerInput, ServerSpec } from "../api/gatehouse";
import { formValuesFromConfig } from "../model/serverFormValues";
import * as fake from "../test/fakeGatehouse";
import { renderAddForm } from "../test/renderAddForm";
import {
  connected,
  httpSpecWithSecrets,
  makeServer,
  plainEnv,
  plainHeader,
  secretEnv,
  secretHeader,
  stdioSpecWithSecrets,
} from "../test/serverFixtures";
import { ServerFormDialog } from "./ServerFormDialog";
import { ServersPage } from "./ServersPage";
import { renderWithClient } from "../test/renderWithClient";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

function renderEdit(spec: ServerSpec) {
  const onSubmit = vi.fn<(input: ServerInput) => Promise<void>>().mockResolvedValue(undefined);
  const config = makeServer("everything", connected(1), spec).config;
  render(<ServerFormDialog mode="edit" initialValues={formValuesFromConfig(config)} onSubmit={onSubmit} onClose={vi.fn()} />);
  return onSubmit;
}

describe("secret fields in the server form", () => {
  it.each([
    ["stdio", "server-secret-env", "Show secret environment variables"],
    ["http", "server-secret-headers", "Show secret headers"],
  ] as const)("masks the %s secret textarea until Show is pressed", async (kind, testId, showName) => {
    renderAddForm();
    await userEvent.click(screen.getByTestId(`server-kind-${kind}`));
    const area = screen.getByTestId(testId);
    expect(area).toHaveClass("input-masked");
    expect(area).toHaveAttribute("data-masked", "true");
    expect(area).toHaveAttribute("autocomplete", "off");
    expect(area).toHaveAttribute("spellcheck", "false");
    expect(area).toHaveAccessibleDescription(/Stored in the OS keyring, never in Gatehouse's database/);

    const show = screen.getByRole("button", { name: showName });
    expect(show).toHaveTextContent("Show");
    expect(show).toHaveAttribute("aria-pressed", "false");
    expect(show).toHaveAttribute("aria-controls", area.id);
    await userEvent.click(show);
    expect(show).toHaveAttribute("aria-pressed", "true");
    expect(area).not.toHaveClass("input-masked");
    expect(area).toHaveAttribute("data-masked", "false");
    await userEvent.click(show);
    expect(area).toHaveClass("input-masked");
  });

  it("submits secret env vars next to plain ones", async () => {
    const onSubmit = renderAddForm();
    await userEvent.type(screen.getByTestId("server-name"), "everything");
    await userEvent.type(screen.getByTestId("server-command"), "npx");
    await userEvent.type(screen.getByTestId("server-env"), "DEBUG=1");
    await userEvent.type(screen.getByTestId("server-secret-env"), "API_KEY=sk-123");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit.mock.calls[0]?.[0].spec).toMatchObject({ env: [plainEnv("DEBUG", "1"), secretEnv("API_KEY", "sk-123")] });
  });

  it("refuses a secret without a value when adding, without echoing secret text", async () => {
    const onSubmit = renderAddForm();
    await userEvent.type(screen.getByTestId("server-name"), "remote");
    await userEvent.click(screen.getByTestId("server-kind-http"));
    await userEvent.type(screen.getByTestId("server-url"), "https://h/mcp");
    await userEvent.type(screen.getByTestId("server-secret-headers"), "Authorization:{enter}Bearer sk-live-zzz");
    await userEvent.click(screen.getByTestId("server-save"));
    const error = screen.getByTestId("server-form-error");
    expect(error).toHaveTextContent('secret headers line 2: expected "Name: value"');
    expect(error).not.toHaveTextContent("sk-live-zzz");
    expect(screen.getByTestId("server-secret-headers")).toHaveAccessibleDescription(/secret headers line 2/);
    expect(screen.getByTestId("server-secret-headers")).not.toHaveAccessibleDescription(/sk-live-zzz/);

    await userEvent.clear(screen.getByTestId("server-secret-headers"));
    await userEvent.type(screen.getByTestId("server-secret-headers"), "Authorization:");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(screen.getByTestId("server-form-error")).toHaveTextContent("the secret `Authorization` needs a value");
    expect(screen.getByTestId("server-secret-headers")).toHaveAttribute("aria-invalid", "true");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("refuses a key set both as plain and as secret", async () => {
    const onSubmit = renderAddForm();
    await userEvent.type(screen.getByTestId("server-name"), "everything");
    await userEvent.type(screen.getByTestId("server-command"), "npx");
    await userEvent.type(screen.getByTestId("server-env"), "TOKEN=a");
    await userEvent.type(screen.getByTestId("server-secret-env"), "TOKEN=b");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(screen.getByTestId("server-form-error")).toHaveTextContent("`TOKEN` is set twice");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("pre-fills stored secrets as empty lines, lists their names, and keeps them when saved unchanged", async () => {
    const onSubmit = renderEdit(stdioSpecWithSecrets());
    expect(screen.getByTestId("server-env")).toHaveValue("DEBUG=1");
    expect(screen.getByTestId("server-secret-env")).toHaveValue("API_KEY=\nDB_PASSWORD=");
    expect(screen.getByTestId("server-secret-env-stored")).toHaveTextContent("In the keyring now: API_KEY, DB_PASSWORD");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit).toHaveBeenCalledWith({ name: "everything", enabled: true, roots: [], spec: stdioSpecWithSecrets() });
  });

  it("replaces a stored secret header when a new value is typed", async () => {
    const onSubmit = renderEdit(httpSpecWithSecrets());
    const area = screen.getByTestId("server-secret-headers");
    expect(area).toHaveValue("Authorization:");
    expect(screen.getByTestId("server-secret-headers-stored")).toHaveTextContent("Authorization");
    await userEvent.type(area, " Bearer new");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit.mock.calls[0]?.[0].spec).toEqual({
      ...httpSpecWithSecrets(),
      headers: [plainHeader("X-Client", "gatehouse"), secretHeader("Authorization", "Bearer new")],
    });
  });

  it("shows no stored-secrets note when adding", () => {
    renderAddForm();
    expect(screen.queryByTestId("server-secret-env-stored")).toBeNull();
  });

  it("sends the keep markers through updateServer when editing from the page", async () => {
    const server = makeServer("everything", connected(2), stdioSpecWithSecrets());
    fake.listServers.mockResolvedValue([server]);
    fake.updateServer.mockResolvedValue(server);
    renderWithClient(<ServersPage />);
    await userEvent.click(await screen.findByTestId("server-edit"));
    const dialog = screen.getByRole("dialog");
    await userEvent.click(within(dialog).getByTestId("server-save"));
    await waitFor(() =>
      expect(fake.updateServer).toHaveBeenCalledWith(server.config.id, expect.objectContaining({ spec: stdioSpecWithSecrets() })),
    );
  });
});
