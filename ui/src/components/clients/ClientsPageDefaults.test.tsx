// Tests for the Clients page's defaults: a client's own setting handed back to the default
// profile, the default profile edited in the window (and its settings handed back to
// Gatehouse's own), and the HTTP endpoint turned on and off, its port changed, and what the
// app serves shown (listening, a port it cannot have).

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { CLAUDE, LISTENING, openClient, profile, setUpClients, view } from "../../test/clientFixtures";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { connected, makeServer, makeTool } from "../../test/serverFixtures";
import { ClientsPage } from "./ClientsPage";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(setUpClients);

const NOTHING = { resources: null, prompts: null, askPerson: null, maxInFlight: null, perMinute: null, maxMessageBytes: null };

describe("ClientsPage defaults", () => {
  it("hands a client's own settings back to the default profile, one at a time", async () => {
    fake.listServers.mockResolvedValue([makeServer("everything", connected(2))]);
    fake.listTools.mockResolvedValue([makeTool("echo")]);
    fake.clientsShow.mockResolvedValue(
      view(CLAUDE, {
        profile: profile({
          own: { prompts: false, servers: { everything: true }, tools: { everything: { echo: false } }, perMinute: 10 },
          effective: { prompts: false, servers: { everything: true }, tools: { everything: { echo: false } } },
        }),
      }),
    );
    fake.clientsSetProfile.mockResolvedValue(profile());
    renderWithClient(<ClientsPage />);
    await openClient("claude");
    // Only what the client sets itself offers the way back.
    expect(screen.queryByTestId("client-resources-reset")).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId("client-prompts-reset"));
    await waitFor(() => expect(fake.clientsSetProfile).toHaveBeenLastCalledWith("claude", { ...NOTHING, reset: [{ kind: "prompts" }] }));

    const server = await screen.findByTestId("client-server");
    await userEvent.click(within(server).getByRole("button", { name: "Serve everything: use the default profile's setting" }));
    await waitFor(() =>
      expect(fake.clientsSetProfile).toHaveBeenLastCalledWith("claude", { ...NOTHING, reset: [{ kind: "server", server: "everything" }] }),
    );

    const echo = await screen.findByTestId("client-tool");
    await waitFor(() => expect(within(echo).getByTestId("client-tool-toggle-reset")).toBeEnabled());
    await userEvent.click(within(echo).getByTestId("client-tool-toggle-reset"));
    await waitFor(() =>
      expect(fake.clientsSetProfile).toHaveBeenLastCalledWith("claude", {
        ...NOTHING,
        reset: [{ kind: "tool", server: "everything", tool: "echo" }],
      }),
    );

    await waitFor(() => expect(screen.getByTestId("client-limits-reset")).toBeEnabled());
    await userEvent.click(screen.getByTestId("client-limits-reset"));
    await waitFor(() => expect(fake.clientsSetProfile).toHaveBeenLastCalledWith("claude", { ...NOTHING, reset: [{ kind: "limits" }] }));
  });

  it("edits the default profile, whose settings fall back to Gatehouse's own", async () => {
    fake.clientsProfile.mockResolvedValue(profile({ client: null, own: { resources: false }, effective: { resources: false } }));
    fake.clientsSetProfile.mockResolvedValue(profile({ client: null }));
    renderWithClient(<ClientsPage />);
    await userEvent.click(screen.getByTestId("open-default-profile"));
    const panel = await screen.findByTestId("default-profile");
    expect(fake.clientsProfile).toHaveBeenCalledWith(null);
    const prompts = await within(panel).findByTestId("client-prompts");
    expect(prompts).toHaveTextContent("(Gatehouse's)");
    await userEvent.click(prompts);
    await waitFor(() => expect(fake.clientsSetProfile).toHaveBeenLastCalledWith(null, { ...NOTHING, prompts: false }));
    await userEvent.click(within(panel).getByRole("button", { name: "Resources: use Gatehouse's setting" }));
    await waitFor(() => expect(fake.clientsSetProfile).toHaveBeenLastCalledWith(null, { ...NOTHING, reset: [{ kind: "resources" }] }));
    // Opening a client closes the default profile.
    await openClient("claude");
    expect(screen.queryByTestId("default-profile")).not.toBeInTheDocument();
  });

  it("turns the HTTP endpoint on and shows when the app listens", async () => {
    fake.gatewayHttpSettings.mockResolvedValue(fake.HTTP_OFF);
    fake.gatewaySetHttp.mockResolvedValue({ ...fake.HTTP_OFF, enabled: true });
    renderWithClient(<ClientsPage />);
    const state = await screen.findByTestId("gateway-http-state");
    await waitFor(() => expect(state).toHaveTextContent("Off: agents connect over stdio"));
    fake.gatewayHttpSettings.mockResolvedValue({ ...LISTENING, port: 47821, url: "http://127.0.0.1:47821/mcp", serving: { state: "listening", port: 47821 } });
    await userEvent.click(screen.getByTestId("gateway-http-toggle"));
    expect(fake.gatewaySetHttp).toHaveBeenCalledWith(true, null);
    // Starting, then read again until the app listens.
    await waitFor(() => expect(screen.getByTestId("gateway-http-state")).toHaveTextContent("Serving http://127.0.0.1:47821/mcp"), {
      timeout: 3000,
    });
  });

  it("says why a port cannot be had, and changes the port", async () => {
    fake.gatewayHttpSettings.mockResolvedValue({ ...LISTENING, serving: { state: "failed", port: 47999, error: "Address already in use" } });
    fake.gatewaySetHttp.mockResolvedValue({ ...LISTENING, port: 48000, url: "http://127.0.0.1:48000/mcp" });
    renderWithClient(<ClientsPage />);
    expect(await screen.findByTestId("gateway-http-state")).toHaveTextContent("Cannot listen on port 47999: Address already in use");
    const port = screen.getByTestId("gateway-http-port");
    await userEvent.clear(port);
    await userEvent.type(port, "70000");
    await userEvent.click(screen.getByRole("button", { name: "Change port" }));
    expect(await screen.findByText("The port must be a whole number from 1 to 65535.")).toBeInTheDocument();
    expect(fake.gatewaySetHttp).not.toHaveBeenCalled();
    await userEvent.clear(port);
    await userEvent.type(port, "48000");
    await userEvent.click(screen.getByRole("button", { name: "Change port" }));
    await waitFor(() => expect(fake.gatewaySetHttp).toHaveBeenCalledWith(true, 48000));
  });
});
