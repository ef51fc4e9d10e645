// Clients-page test fixtures: client records, profiles and views, the HTTP endpoint listening,
// the fake Gatehouse set up with two clients, and finding and opening a client's row.

import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ClientProfile, ClientRecord, ClientView, HttpEndpoint } from "../api/gatehouse";
import * as fake from "./fakeGatehouse";

export function record(name: string, fields: Partial<ClientRecord> = {}): ClientRecord {
  return {
    name,
    created_at: "2026-11-27T08:00:00Z",
    last_seen: null,
    has_token: false,
    token_created_at: null,
    prefix: false,
    connected: null,
    ...fields,
  };
}

export function profile(fields: Partial<ClientProfile> = {}): ClientProfile {
  return { client: "claude", own: {}, effective: {}, limits: { maxInFlight: 8, perMinute: null, maxMessageBytes: 4194304 }, ...fields };
}

export function view(client: ClientRecord, fields: Partial<ClientView> = {}): ClientView {
  return { client, profile: profile({ client: client.name }), recent: [], ...fields };
}

export const CLAUDE = record("claude", {
  has_token: true,
  token_created_at: "2026-11-27T08:01:00Z",
  last_seen: "2026-11-27T08:02:00Z",
  connected: { sessions: 2, since: "2026-11-27T08:03:00Z" },
});
export const CURSOR = record("cursor", { prefix: true });
export const LISTENING: HttpEndpoint = {
  enabled: true,
  port: 47999,
  url: "http://127.0.0.1:47999/mcp",
  serving: { state: "listening", port: 47999 },
};

/** The fake Gatehouse with claude and cursor as clients and the endpoint listening. */
export function setUpClients() {
  fake.resetFakeGatehouse();
  fake.clientsList.mockResolvedValue([CLAUDE, CURSOR]);
  fake.clientsShow.mockImplementation((name) => Promise.resolve(view(name === "claude" ? CLAUDE : CURSOR)));
  fake.gatewayHttpSettings.mockResolvedValue(LISTENING);
}

export const row = (name: string) => {
  const found = screen.getAllByTestId("client-row").find((r) => r.dataset.clientName === name);
  if (found === undefined) throw new Error(`no row for client ${name}`);
  return found;
};

export async function openClient(name: string) {
  await screen.findAllByTestId("client-row");
  await userEvent.click(within(row(name)).getByRole("button", { name }));
  return screen.findByTestId("client-profile");
}
