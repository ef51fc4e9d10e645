// Tests for the Clients page: the list, adding and removing a client, a client's profile
// switches and limits sent through set-profile, the naming choice, the token shown once and
// gone when the person leaves the client, and the connect snippet and recent requests.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../../api/GatehouseError";
import { auditRow } from "../../test/auditFixtures";
import { CLAUDE, openClient, profile, record, row, setUpClients, view } from "../../test/clientFixtures";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { connected, makeServer, makeTool } from "../../test/serverFixtures";
import { ClientsPage } from "./ClientsPage";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(setUpClients);

describe("ClientsPage", () => {
  it("lists the clients with whether they are connected, their token, last seen and naming choice", async () => {
    renderWithClient(<ClientsPage />);
    await screen.findAllByTestId("client-row");
    expect(row("claude")).toHaveTextContent("Yes, made 2026-11-27T08:01:00Z");
    expect(row("claude")).toHaveTextContent("2026-11-27T08:02:00Z");
    expect(row("claude")).toHaveTextContent("Bare where unique");
    expect(row("cursor")).toHaveTextContent("No");
    expect(row("cursor")).toHaveTextContent("Never over HTTP");
    expect(within(row("claude")).getByTestId("client-connected")).toHaveTextContent("Now: 2 sessions, since 2026-11-27T08:03:00Z");
    expect(within(row("cursor")).getByTestId("client-connected")).toHaveTextContent("No");
    expect(row("cursor")).toHaveTextContent("Always SERVER__NAME");
  });

  it("says when there are no clients", async () => {
    fake.clientsList.mockResolvedValue([]);
    renderWithClient(<ClientsPage />);
    expect(await screen.findByTestId("clients-empty")).toHaveTextContent("No clients");
  });

  it("adds a client by name and shows an error inline when the name is refused", async () => {
    fake.clientsAdd.mockRejectedValueOnce(new GatehouseError("validation", "`a b` is not a valid client name"));
    renderWithClient(<ClientsPage />);
    await screen.findAllByTestId("client-row");
    await userEvent.type(screen.getByTestId("client-name-input"), "a b");
    await userEvent.click(screen.getByTestId("add-client"));
    expect(await screen.findByTestId("page-error")).toHaveTextContent("is not a valid client name");
    expect(fake.clientsAdd).toHaveBeenCalledWith("a b");

    fake.clientsAdd.mockResolvedValueOnce(record("codex"));
    await userEvent.clear(screen.getByTestId("client-name-input"));
    await userEvent.type(screen.getByTestId("client-name-input"), "codex");
    await userEvent.click(screen.getByTestId("add-client"));
    await waitFor(() => expect(fake.clientsAdd).toHaveBeenLastCalledWith("codex"));
    await waitFor(() => expect(fake.clientsList).toHaveBeenCalledTimes(3));
  });

  it("removes a client only once confirmed", async () => {
    fake.clientsRemove.mockResolvedValue(null);
    renderWithClient(<ClientsPage />);
    await screen.findAllByTestId("client-row");
    await userEvent.click(screen.getByRole("button", { name: "Remove cursor" }));
    expect(fake.clientsRemove).not.toHaveBeenCalled();
    await userEvent.click(await screen.findByTestId("confirm-action"));
    await waitFor(() => expect(fake.clientsRemove).toHaveBeenCalledWith("cursor"));
    await waitFor(() => expect(screen.queryByTestId("confirm-dialog")).not.toBeInTheDocument());
  });

  it("turns a server and one of its tools off through set-profile, each as one change", async () => {
    const everything = makeServer("everything", connected(2));
    fake.listServers.mockResolvedValue([everything]);
    fake.listTools.mockResolvedValue([makeTool("echo"), makeTool("add")]);
    fake.clientsSetProfile.mockResolvedValue(profile());
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    const server = await screen.findByTestId("client-server");
    await userEvent.click(within(server).getByRole("switch", { name: "Serve everything" }));
    await waitFor(() =>
      expect(fake.clientsSetProfile).toHaveBeenCalledWith("claude", {
        servers: [{ server: "everything", on: false }],
        resources: null,
        prompts: null,
        askPerson: null,
        maxInFlight: null,
        perMinute: null,
        maxMessageBytes: null,
      }),
    );
    const echo = (await screen.findAllByTestId("client-tool")).find((t) => t.dataset.toolName === "echo");
    if (echo === undefined) throw new Error("no echo tool");
    await waitFor(() => expect(within(echo).getByRole("switch")).toBeEnabled());
    await userEvent.click(within(echo).getByRole("switch", { name: "Serve everything echo" }));
    await waitFor(() =>
      expect(fake.clientsSetProfile).toHaveBeenLastCalledWith("claude", expect.objectContaining({ tools: [{ server: "everything", tool: "echo", on: false }] })),
    );
  });

  it("shows what the client is served and whether it sets it itself", async () => {
    fake.clientsShow.mockResolvedValue(
      view(CLAUDE, { profile: profile({ own: { prompts: false }, effective: { prompts: false, resources: false } }) }),
    );
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    const prompts = screen.getByTestId("client-prompts");
    expect(prompts).toHaveAttribute("aria-checked", "false");
    expect(prompts).toHaveAttribute("data-own", "true");
    const resources = screen.getByTestId("client-resources");
    expect(resources).toHaveAttribute("aria-checked", "false");
    expect(resources).toHaveTextContent("(default)");
  });

  it("turns off asking the person for what the client cannot answer", async () => {
    fake.clientsSetProfile.mockResolvedValue(profile());
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    const ask = screen.getByTestId("client-ask-person");
    expect(ask).toHaveAttribute("aria-checked", "true");
    await userEvent.click(ask);
    await waitFor(() =>
      expect(fake.clientsSetProfile).toHaveBeenCalledWith("claude", expect.objectContaining({ askPerson: false, prompts: null })),
    );
  });

  it("keeps a refused change's error on screen until dismissed", async () => {
    fake.clientsSetProfile.mockRejectedValue(new GatehouseError("internal", "database is locked"));
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    await userEvent.click(screen.getByTestId("client-resources"));
    expect(await screen.findByTestId("page-error")).toHaveTextContent("Could not change the profile: database is locked");
    expect(fake.clientsSetProfile).toHaveBeenCalledWith("claude", expect.objectContaining({ resources: false }));
  });

  it("sends only the limits changed", async () => {
    fake.clientsSetProfile.mockResolvedValue(profile());
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    const limits = screen.getByTestId("client-limits");
    const perMinute = within(limits).getByLabelText(/Requests per minute/);
    await userEvent.clear(perMinute);
    await userEvent.type(perMinute, "30");
    await userEvent.click(within(limits).getByRole("button", { name: "Apply limits" }));
    await waitFor(() =>
      expect(fake.clientsSetProfile).toHaveBeenCalledWith("claude", {
        perMinute: 30,
        resources: null,
        prompts: null,
        askPerson: null,
        maxInFlight: null,
        maxMessageBytes: null,
      }),
    );
  });

  it("sets the naming choice", async () => {
    fake.clientsSetPrefix.mockResolvedValue(record("claude", { prefix: true }));
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    await userEvent.click(screen.getByTestId("client-prefix"));
    await waitFor(() => expect(fake.clientsSetPrefix).toHaveBeenCalledWith("claude", true));
  });

  it("shows a new token once, and not after the person leaves the client", async () => {
    fake.clientsCreateToken.mockResolvedValue("gh_secret_token_1");
    const { client } = renderWithClient(<ClientsPage />);
    await openClient("claude");
    await userEvent.click(screen.getByTestId("create-token"));
    expect(await screen.findByTestId("token-value")).toHaveValue("gh_secret_token_1");
    expect(screen.getByTestId("token-shown")).toHaveTextContent("Shown once.");

    await openClient("cursor");
    await waitFor(() => expect(screen.getByRole("heading", { name: "cursor" })).toBeInTheDocument());
    expect(screen.queryByTestId("token-value")).not.toBeInTheDocument();
    await openClient("claude");
    expect(screen.queryByTestId("token-value")).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent("gh_secret_token_1");
    // Nor does the query client keep it.
    await waitFor(() => expect(JSON.stringify(client.getMutationCache().getAll().map((m) => m.state))).not.toContain("gh_secret_token_1"));
    expect(JSON.stringify(client.getQueryCache().getAll().map((q) => q.state))).not.toContain("gh_secret_token_1");
  });

  it("revokes a token only once confirmed", async () => {
    fake.clientsRevokeToken.mockResolvedValue(null);
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    await userEvent.click(screen.getByTestId("revoke-token"));
    expect(fake.clientsRevokeToken).not.toHaveBeenCalled();
    await userEvent.click(await screen.findByTestId("confirm-action"));
    await waitFor(() => expect(fake.clientsRevokeToken).toHaveBeenCalledWith("claude"));
  });

  it("shows how to connect and the client's recent requests", async () => {
    fake.clientsShow.mockResolvedValue(view(CLAUDE, { recent: [auditRow(7, { source: "gateway", tool: "echo", decision: "allow" })] }));
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    const connect = screen.getByTestId("client-connect");
    expect(connect).toHaveTextContent("gatehouse mcp --client claude");
    expect(await within(connect).findByText("http://127.0.0.1:47999/mcp")).toBeInTheDocument();
    const recent = screen.getByTestId("client-recent-row");
    expect(recent).toHaveTextContent("echo");
    expect(recent).toHaveTextContent("allow");
  });
});
