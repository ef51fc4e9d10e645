// Tests for the OAuth grant choice of the server form: workload identity (the JWT file's path)
// and enterprise-managed authorization (the identity provider's issuer, client id and secret),
// each grant showing only its own fields, what is submitted, editing with a kept IdP secret,
// client-side errors, and the server summary naming them (never a secret).

import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerInput, ServerSpec } from "../api/gatehouse";
import { formValuesFromConfig } from "../model/serverFormValues";
import * as fake from "../test/fakeGatehouse";
import { renderAddForm } from "../test/renderAddForm";
import { renderDetail } from "../test/renderDetail";
import { connected, makeServer } from "../test/serverFixtures";
import { ServerFormDialog } from "./ServerFormDialog";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

async function startHttp(grant: string) {
  await userEvent.type(screen.getByTestId("server-name"), "remote");
  await userEvent.click(screen.getByTestId("server-kind-http"));
  await userEvent.type(screen.getByTestId("server-url"), "https://mcp.example.com/mcp");
  await userEvent.click(screen.getByTestId("server-oauth-toggle"));
  await userEvent.selectOptions(screen.getByTestId("server-oauthGrant"), grant);
  await userEvent.type(screen.getByTestId("server-oauthIssuer"), "https://auth.example.com");
  await userEvent.type(screen.getByTestId("server-oauthClientId"), "mcp-client");
}

const ENTERPRISE: ServerSpec = {
  kind: "http",
  url: "https://mcp.example.com/mcp",
  transport: "auto",
  headers: [],
  oauth: {
    issuer: "https://auth.example.com",
    clientId: "mcp-client",
    clientSecret: null,
    clientMetadataUrl: null,
    grant: "enterpriseManaged",
    privateKey: null,
    idpIssuer: "https://login.example.com",
    idpClientId: "gatehouse",
    idpClientSecret: "",
  },
};

describe("OAuth grants in the server form", () => {
  it("offers each grant's own fields only", async () => {
    renderAddForm();
    await userEvent.click(screen.getByTestId("server-kind-http"));
    await userEvent.click(screen.getByTestId("server-oauth-toggle"));
    expect(screen.queryByTestId("server-oauthAssertionFile")).toBeNull();
    expect(screen.queryByTestId("server-oauthIdpIssuer")).toBeNull();
    await userEvent.selectOptions(screen.getByTestId("server-oauthGrant"), "jwtBearer");
    expect(screen.getByTestId("server-oauthAssertionFile")).toHaveAccessibleDescription(/Read again each time tokens are requested/);
    expect(screen.queryByTestId("server-oauthIdpIssuer")).toBeNull();
    await userEvent.selectOptions(screen.getByTestId("server-oauthGrant"), "enterpriseManaged");
    expect(screen.queryByTestId("server-oauthAssertionFile")).toBeNull();
    expect(screen.getByTestId("server-oauthIdpIssuer")).toBeInTheDocument();
    expect(screen.getByTestId("server-oauthIdpClientId")).toBeInTheDocument();
    expect(screen.getByTestId("server-oauthIdpClientSecret")).toHaveAttribute("type", "password");
    expect(screen.queryByTestId("server-oauthPrivateKey")).toBeNull();
  });

  it("submits a workload identity server with its token file", async () => {
    const onSubmit = renderAddForm();
    await startHttp("jwtBearer");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(screen.getByTestId("server-oauthAssertionFile")).toHaveAccessibleDescription(/path of the file holding the workload's JWT/);
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.type(screen.getByTestId("server-oauthAssertionFile"), " /var/run/secrets/token ");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const spec = onSubmit.mock.calls[0]?.[0].spec;
    expect(spec?.kind === "http" && spec.oauth).toMatchObject({
      issuer: "https://auth.example.com",
      clientId: "mcp-client",
      grant: "jwtBearer",
      assertionFile: "/var/run/secrets/token",
      idpIssuer: null,
      idpClientId: null,
      idpClientSecret: null,
    });
  });

  it("submits an enterprise-managed server with its identity provider, the secret typed", async () => {
    const onSubmit = renderAddForm();
    await startHttp("enterpriseManaged");
    await userEvent.click(screen.getByTestId("server-save"));
    expect(screen.getByTestId("server-oauthIdpIssuer")).toHaveAccessibleDescription(/identity provider's issuer URL/);
    expect(screen.getByTestId("server-oauthIdpClientId")).toHaveAccessibleDescription(/client id at the identity provider/);
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.type(screen.getByTestId("server-oauthIdpIssuer"), "https://login.example.com");
    await userEvent.type(screen.getByTestId("server-oauthIdpClientId"), "gatehouse");
    await userEvent.type(screen.getByTestId("server-oauthIdpClientSecret"), "idp-s3cret");
    await userEvent.click(screen.getByTestId("server-save"));
    const spec = onSubmit.mock.calls[0]?.[0].spec;
    expect(spec?.kind === "http" && spec.oauth).toMatchObject({
      grant: "enterpriseManaged",
      idpIssuer: "https://login.example.com",
      idpClientId: "gatehouse",
      idpClientSecret: "idp-s3cret",
      assertionFile: null,
    });
  });

  it("keeps a stored identity provider secret when editing leaves it empty", async () => {
    const onSubmit = vi.fn<(input: ServerInput) => Promise<void>>().mockResolvedValue(undefined);
    const config = makeServer("remote", connected(1), ENTERPRISE).config;
    render(<ServerFormDialog mode="edit" initialValues={formValuesFromConfig(config)} onSubmit={onSubmit} onClose={vi.fn()} />);
    expect(screen.getByTestId("server-oauthIdpIssuer")).toHaveValue("https://login.example.com");
    expect(screen.getByTestId("server-oauthIdpClientSecret")).toHaveAttribute("placeholder", "(kept)");
    await userEvent.click(screen.getByTestId("server-save"));
    const spec = onSubmit.mock.calls[0]?.[0].spec;
    expect(spec?.kind === "http" && spec.oauth?.idpClientSecret).toBe("");
  });

  it("names the grant in the server summary, never a secret", () => {
    renderDetail({ state: "disabled" }, { ...ENTERPRISE, oauth: { ...ENTERPRISE.oauth!, idpClientSecret: "idp-leak" } });
    expect(screen.getByTestId("config-oauth")).toHaveTextContent(
      "mcp-client at https://auth.example.com; enterprise-managed, signing in at https://login.example.com as gatehouse, its secret in the OS keyring",
    );
    expect(screen.getByTestId("server-detail").innerHTML).not.toContain("idp-leak");
  });

  it("names the workload token file in the server summary", () => {
    renderDetail(
      { state: "disabled" },
      {
        ...ENTERPRISE,
        oauth: { ...ENTERPRISE.oauth!, grant: "jwtBearer", idpIssuer: null, idpClientId: null, idpClientSecret: null, assertionFile: "/run/token" },
      },
    );
    expect(screen.getByTestId("config-oauth")).toHaveTextContent("mcp-client at https://auth.example.com; workload identity, the JWT read from /run/token");
  });
});
