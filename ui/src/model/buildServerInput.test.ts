// Tests for client-side form validation and ServerInput construction, roots included.

import { describe, expect, it } from "vitest";
import { buildServerInput } from "./buildServerInput";
import { emptyFormValues, formValuesFromConfig } from "./serverFormValues";
import type { ServerFormValues } from "./serverFormValues";

const form = (overrides: Partial<ServerFormValues>): ServerFormValues => ({ ...emptyFormValues(), ...overrides });

describe("buildServerInput", () => {
  it("builds a stdio input: trims name/command, one arg per line, empty cwd becomes null", () => {
    const result = buildServerInput(
      form({ name: "  everything ", command: " npx ", args: "-y\n\n@modelcontextprotocol/server-everything\n", env: "DEBUG=1" }),
    );
    expect(result).toEqual({
      ok: true,
      input: {
        name: "everything",
        enabled: true,
        roots: [],
        spec: {
          kind: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-everything"],
          env: [{ key: "DEBUG", value: "1", secret: false }],
          cwd: null,
          stop: { stdinMs: 2000, termMs: 3000 },
        },
      },
    });
  });

  it("keeps a working directory and the enabled flag", () => {
    const result = buildServerInput(form({ name: "a", command: "node", cwd: " /srv/app ", enabled: false }));
    expect(result.ok && result.input).toMatchObject({ enabled: false, spec: { cwd: "/srv/app" } });
  });

  it("reports every problem at once: empty name, empty command, malformed env", () => {
    const result = buildServerInput(form({ name: "   ", command: "", env: "oops" }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.name).toBe("name must not be empty");
      expect(result.errors.command).toBe("command must not be empty");
      expect(result.errors.env).toMatch(/environment line 1/);
    }
  });

  it("builds an http input with transport and headers", () => {
    const result = buildServerInput(
      form({ name: "remote", kind: "http", url: " https://example.com/mcp ", transport: "sse", headers: "Authorization: Bearer t" }),
    );
    expect(result).toEqual({
      ok: true,
      input: {
        name: "remote",
        enabled: true,
        roots: [],
        spec: {
          kind: "http",
          url: "https://example.com/mcp",
          transport: "sse",
          headers: [{ name: "Authorization", value: "Bearer t", secret: false }],
        },
      },
    });
  });

  it.each([
    ["", "url must not be empty"],
    ["example.com/mcp", "url must be http(s): could not parse it as a URL"],
    ["ftp://example.com", "url must be http(s)"],
    ["file:///etc/passwd", "url must be http(s)"],
  ])("rejects the url %j", (url, message) => {
    const result = buildServerInput(form({ name: "r", kind: "http", url }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.url).toBe(message);
  });

  it("rejects malformed header lines", () => {
    const result = buildServerInput(form({ name: "r", kind: "http", url: "http://localhost:3000/mcp", headers: "nocolon" }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.headers).toMatch(/headers line 1/);
  });

  it("ignores the fields of the kind that is not selected", () => {
    // Leftover invalid stdio values must not block saving an http server, and vice versa.
    expect(buildServerInput(form({ name: "r", kind: "http", url: "http://h/mcp", command: "", env: "bad" })).ok).toBe(true);
    expect(buildServerInput(form({ name: "s", kind: "stdio", command: "x", url: "not a url" })).ok).toBe(true);
  });

  it.each(["stdio", "http"] as const)("sends the roots of a %s server, blank lines and duplicates dropped", (kind) => {
    const roots = " /home/me/project \n\nfile:///tmp/x\n/home/me/project\nfile:///home/me/project";
    const result = buildServerInput(form({ name: "r", kind, command: "npx", url: "https://h/mcp", roots }));
    expect(result.ok && result.input.roots).toEqual(["/home/me/project", "file:///tmp/x"]);
  });

  it.each(["stdio", "http"] as const)("blocks a %s server with a relative root, with the engine's wording", (kind) => {
    const result = buildServerInput(form({ name: "r", kind, command: "npx", url: "https://h/mcp", roots: "/ok\nrelative/dir" }));
    expect(result).toEqual({ ok: false, errors: { roots: "the root `relative/dir` must be an absolute path or a file:// URI" } });
  });

  it("reports a bad root alongside the other errors", () => {
    const result = buildServerInput(form({ name: "", command: "x", roots: "~/code" }));
    expect(result).toEqual({
      ok: false,
      errors: { name: "name must not be empty", roots: "the root `~/code` must be an absolute path or a file:// URI" },
    });
  });

  it("sends the stop waits in milliseconds and refuses what is not a number of seconds", () => {
    const ok = buildServerInput(form({ name: "a", command: "node", stopGrace: "0.5", termGrace: " 10 " }));
    expect(ok.ok && ok.input.spec).toMatchObject({ stop: { stdinMs: 500, termMs: 10000 } });
    const bad = buildServerInput(form({ name: "a", command: "node", stopGrace: "soon", termGrace: "601" }));
    expect(bad).toEqual({
      ok: false,
      errors: { stopGrace: "a number of seconds, 0 or more", termGrace: "at most 600 seconds" },
    });
  });

  it("round-trips a saved config through the form", () => {
    const spec = {
      kind: "stdio" as const,
      command: "uvx",
      args: ["mcp-server-git", "--repository", "/tmp/repo"],
      env: [{ key: "A", value: "b=c", secret: false }],
      cwd: "/tmp",
      stop: { stdinMs: 1500, termMs: 10000 },
    };
    const values = formValuesFromConfig({
      id: "1",
      name: "git",
      enabled: false,
      roots: ["file:///home/me/my%20project", "file:///tmp"],
      spec,
      createdAt: "",
      updatedAt: "",
    });
    // The engine turns the displayed paths back into the same file:// URIs.
    expect(buildServerInput(values)).toEqual({
      ok: true,
      input: { name: "git", enabled: false, roots: ["/home/me/my project", "/tmp"], spec },
    });
  });

  it("carries a pre-registered OAuth client, and keeps a stored secret when none is typed", () => {
    const http = { name: "remote", kind: "http" as const, url: "https://mcp.example.com/mcp" };
    expect(buildServerInput(form(http))).toMatchObject({ ok: true });
    const plain = buildServerInput(form(http));
    expect(plain.ok && "oauth" in plain.input.spec).toBe(false);

    const result = buildServerInput(
      form({ ...http, oauthIssuer: " https://auth.example.com ", oauthClientId: "abc", oauthClientSecret: "s3cret" }),
    );
    expect(result.ok && result.input.spec.kind === "http" && result.input.spec.oauth).toEqual({
      issuer: "https://auth.example.com",
      clientId: "abc",
      clientSecret: "s3cret",
      clientMetadataUrl: null,
      grant: "authorizationCode",
      privateKey: null,
      assertionFile: null,
      idpIssuer: null,
      idpClientId: null,
      idpClientSecret: null,
    });

    const machine = buildServerInput(
      form({
        ...http,
        oauthIssuer: "https://auth.example.com",
        oauthClientId: "abc",
        oauthGrant: "clientCredentials",
        oauthPrivateKey: "-----BEGIN PRIVATE KEY-----",
      }),
    );
    expect(machine.ok && machine.input.spec.kind === "http" && machine.input.spec.oauth).toMatchObject({
      grant: "clientCredentials",
      privateKey: "-----BEGIN PRIVATE KEY-----",
    });

    const kept = buildServerInput(
      form({ ...http, oauthIssuer: "https://auth.example.com", oauthClientId: "abc", storedOAuthSecret: true }),
    );
    expect(kept.ok && kept.input.spec.kind === "http" && kept.input.spec.oauth?.clientSecret).toBe("");

    expect(buildServerInput(form({ ...http, oauthClientId: "abc" }))).toEqual({
      ok: false,
      errors: { oauthIssuer: "a client id needs the issuer URL of the authorization server it is registered with" },
    });
  });

  it("reads a stored OAuth client back into the form, its secret as kept", () => {
    const values = formValuesFromConfig({
      id: "1",
      name: "remote",
      enabled: true,
      roots: [],
      createdAt: "",
      updatedAt: "",
      spec: {
        kind: "http",
        url: "https://mcp.example.com/mcp",
        transport: "auto",
        headers: [],
        oauth: {
          issuer: "https://auth.example.com",
          clientId: "abc",
          clientSecret: "",
          clientMetadataUrl: null,
          grant: "clientCredentials",
          privateKey: "",
        },
      },
    });
    expect(values).toMatchObject({
      oauthIssuer: "https://auth.example.com",
      oauthClientId: "abc",
      oauthClientSecret: "",
      storedOAuthSecret: true,
      oauthGrant: "clientCredentials",
      storedOAuthPrivateKey: true,
    });
  });
});
