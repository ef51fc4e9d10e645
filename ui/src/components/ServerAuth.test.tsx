// Tests for an HTTP server's sign-in: the Sign-in tab (signed out, signing in while the browser
// is open, signed in with issuer, scopes and expiry, signing out, a failed sign-in) and the Sign
// in button of a server that asks for authorization. No token is ever shown: none reaches the UI.

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../api/GatehouseError";
import * as fake from "../test/fakeGatehouse";
import { renderDetail } from "../test/renderDetail";
import { httpSpecWithSecrets } from "../test/serverFixtures";
import { expiryText } from "./ServerAuth";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

const AUTH_REQUIRED = { state: "authRequired", message: "HTTP 401" } as const;

const SIGNED_IN = {
  signedIn: true,
  issuer: "https://auth.example.com",
  scopes: ["mcp:tools", "offline_access"],
  expiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
  refreshable: true,
  grant: "authorization-code",
  idpIssuer: null as string | null,
  idpSignedIn: null as boolean | null,
};


describe("ServerAuth", () => {
  it("signs in from the Sign in button of a server that asks for authorization", async () => {
    const finish: ((state: typeof SIGNED_IN) => void)[] = [];
    fake.signIn.mockReturnValue(new Promise((resolve) => finish.push(resolve)));
    const { view } = renderDetail(AUTH_REQUIRED, httpSpecWithSecrets());
    await userEvent.click(screen.getByTestId("sign-in-button"));
    expect(fake.signIn).toHaveBeenCalledWith(view.config.id);
    await waitFor(() => expect(screen.getByTestId("sign-in-button")).toHaveTextContent("Waiting for the browser…"));
    expect(screen.getByTestId("sign-in-button")).toBeDisabled();
    finish.forEach((resolve) => resolve(SIGNED_IN));
    await waitFor(() => expect(screen.getByTestId("sign-in-button")).toHaveTextContent("Sign in"));
  });

  it("shows the sign-in state on the Sign-in tab, and signs out", async () => {
    fake.authStatus.mockResolvedValue(SIGNED_IN);
    fake.signOut.mockResolvedValue(null);
    const { view } = renderDetail({ state: "connecting" }, httpSpecWithSecrets());
    await userEvent.click(screen.getByTestId("tab-auth"));
    const facts = await screen.findByTestId("auth-signed-in");
    expect(facts).toHaveTextContent("Signed in (renewed automatically)");
    expect(facts).toHaveTextContent("https://auth.example.com");
    expect(facts).toHaveTextContent("mcp:toolsoffline_access");
    expect(screen.getByTestId("auth-expiry")).toHaveTextContent(/^in 1[89] min$/);
    expect(screen.getByTestId("auth-sign-in")).toHaveTextContent("Sign in again");

    fake.authStatus.mockResolvedValue(fake.SIGNED_OUT);
    await userEvent.click(screen.getByTestId("auth-sign-out"));
    expect(fake.signOut).toHaveBeenCalledWith(view.config.id);
    expect(await screen.findByTestId("auth-signed-out")).toHaveTextContent("Not signed in");
    expect(screen.queryByTestId("auth-sign-out")).toBeNull();
  });

  it("says what failed when signing in fails", async () => {
    fake.signIn.mockRejectedValue(
      new GatehouseError("authorization", "the browser did not come back within 5 minutes; sign in again"),
    );
    renderDetail(AUTH_REQUIRED, httpSpecWithSecrets());
    await userEvent.click(screen.getByTestId("tab-auth"));
    await userEvent.click(await screen.findByTestId("auth-sign-in"));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Signing in failed: the browser did not come back within 5 minutes; sign in again",
    );
  });

  it("has no Sign-in tab or button for a stdio server", () => {
    renderDetail({ state: "failed", message: "x" });
    expect(screen.queryByTestId("tab-auth")).toBeNull();
    expect(screen.queryByTestId("sign-in-button")).toBeNull();
    expect(fake.authStatus).not.toHaveBeenCalled();
  });
});

describe("expiryText", () => {
  const now = Date.parse("2026-11-25T10:00:00Z");
  it("says how long is left, or that it expired", () => {
    expect(expiryText("2026-11-25T10:12:30Z", now)).toBe("in 12 min");
    expect(expiryText("2026-11-25T10:00:30Z", now)).toBe("in less than a minute");
    expect(expiryText("2026-11-25T09:59:00Z", now)).toBe("expired");
    expect(expiryText("not a time", now)).toBe("not a time");
  });
});

describe("ServerAuth with enterprise-managed authorization", () => {
  it("says whether the sign-in at the identity provider is kept", async () => {
    fake.authStatus.mockResolvedValue({
      ...fake.SIGNED_OUT,
      grant: "enterprise-managed",
      idpIssuer: "https://login.example.com",
      idpSignedIn: false,
    });
    renderDetail({ state: "connecting" }, httpSpecWithSecrets());
    await userEvent.click(screen.getByTestId("tab-auth"));
    expect(await screen.findByTestId("auth-idp")).toHaveTextContent(
      "Signing in happens at the identity provider https://login.example.com: not signed in there (or the sign-in expired).",
    );
    fake.authStatus.mockResolvedValue({ ...SIGNED_IN, grant: "enterprise-managed", idpIssuer: "https://login.example.com", idpSignedIn: true });
    await userEvent.click(screen.getByTestId("auth-sign-in"));
    await waitFor(() => expect(screen.getByTestId("auth-idp")).toHaveTextContent("a sign-in there is kept and serves every server that uses it."));

    fake.forgetIdpSignIn.mockResolvedValue(null);
    fake.authStatus.mockResolvedValue({ ...SIGNED_IN, grant: "enterprise-managed", idpIssuer: "https://login.example.com", idpSignedIn: false });
    await userEvent.click(screen.getByTestId("auth-forget-idp"));
    expect(fake.forgetIdpSignIn).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByTestId("auth-forget-idp")).toBeNull());
    expect(screen.getByTestId("auth-idp")).toHaveTextContent("not signed in there");
  });
});
