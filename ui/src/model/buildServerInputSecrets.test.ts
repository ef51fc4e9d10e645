// Tests for building ServerInput with secret env vars and headers: secret flags, keep-on-empty
// when editing, missing values when adding, and names set in both lists.

import { describe, expect, it } from "vitest";
import type { ServerSpec } from "../api/gatehouse";
import { httpSpecWithSecrets, plainEnv, plainHeader, secretEnv, secretHeader, stdioSpecWithSecrets } from "../test/serverFixtures";
import { buildServerInput } from "./buildServerInput";
import { emptyFormValues, formValuesFromConfig } from "./serverFormValues";
import type { ServerFormValues } from "./serverFormValues";

const form = (overrides: Partial<ServerFormValues>): ServerFormValues => ({ ...emptyFormValues(), ...overrides });
const stdio = (overrides: Partial<ServerFormValues>) => form({ name: "s", command: "npx", ...overrides });
const http = (overrides: Partial<ServerFormValues>) => form({ name: "h", kind: "http", url: "https://h/mcp", ...overrides });
const configWith = (spec: ServerSpec) => ({
  id: "1",
  name: "x",
  enabled: true,
  roots: [],
  spec,
  createdAt: "",
  updatedAt: "",
});

describe("buildServerInput with secrets", () => {
  it("sends plain env vars with secret: false and secret ones with secret: true", () => {
    const result = buildServerInput(stdio({ env: "DEBUG=1", secretEnv: "API_KEY=sk-123\nTOKEN=a=b" }));
    expect(result.ok && result.input.spec).toMatchObject({
      env: [plainEnv("DEBUG", "1"), secretEnv("API_KEY", "sk-123"), secretEnv("TOKEN", "a=b")],
    });
  });

  it("sends plain headers with secret: false and secret ones with secret: true", () => {
    const result = buildServerInput(http({ headers: "X-Client: g", secretHeaders: "Authorization: Bearer t" }));
    expect(result.ok && result.input.spec).toMatchObject({
      headers: [plainHeader("X-Client", "g"), secretHeader("Authorization", "Bearer t")],
    });
  });

  it("keeps stored secrets on edit: the pre-filled empty lines are sent as empty secret values", () => {
    const values = formValuesFromConfig(configWith(stdioSpecWithSecrets()));
    const result = buildServerInput(values);
    expect(result).toEqual({ ok: true, input: { name: "x", enabled: true, roots: [], spec: stdioSpecWithSecrets() } });

    const headerValues = formValuesFromConfig(configWith(httpSpecWithSecrets()));
    expect(buildServerInput(headerValues)).toEqual({ ok: true, input: { name: "x", enabled: true, roots: [], spec: httpSpecWithSecrets() } });
  });

  it("replaces one stored secret and keeps the other", () => {
    const values = formValuesFromConfig(configWith(stdioSpecWithSecrets()));
    const result = buildServerInput({ ...values, secretEnv: "API_KEY=new-key\nDB_PASSWORD=" });
    expect(result.ok && result.input.spec).toMatchObject({
      env: [plainEnv("DEBUG", "1"), secretEnv("API_KEY", "new-key"), secretEnv("DB_PASSWORD", "")],
    });
  });

  it("requires a value for a secret when adding", () => {
    const result = buildServerInput(stdio({ secretEnv: "API_KEY=" }));
    expect(result).toEqual({ ok: false, errors: { secretEnv: "the secret `API_KEY` needs a value" } });
    const headers = buildServerInput(http({ secretHeaders: "Authorization:" }));
    expect(headers).toEqual({ ok: false, errors: { secretHeaders: "the secret `Authorization` needs a value" } });
  });

  it("requires a value for a new secret when editing a server that stores other secrets", () => {
    const values = formValuesFromConfig(configWith(stdioSpecWithSecrets()));
    const result = buildServerInput({ ...values, secretEnv: `${values.secretEnv}\nNEW_TOKEN=` });
    expect(result).toEqual({ ok: false, errors: { secretEnv: "the secret `NEW_TOKEN` needs a value" } });
  });

  it("rejects a key that is in both the plain and the secret list", () => {
    const result = buildServerInput(stdio({ env: "TOKEN=plain", secretEnv: "TOKEN=secret" }));
    expect(result).toEqual({ ok: false, errors: { secretEnv: "`TOKEN` is set twice" } });
    const headers = buildServerInput(http({ headers: "Authorization: a", secretHeaders: "authorization: b" }));
    expect(headers).toEqual({ ok: false, errors: { secretHeaders: "`authorization` is set twice" } });
  });

  it("reports malformed secret lines alongside other errors", () => {
    const result = buildServerInput(stdio({ command: "", env: "bad", secretEnv: "oops" }));
    expect(result).toEqual({
      ok: false,
      errors: {
        command: "command must not be empty",
        env: 'environment line 1: expected KEY=VALUE, got "bad"',
        secretEnv: "secret environment line 1: expected KEY=VALUE",
      },
    });
  });

  it("ignores the secret list of the kind that is not selected", () => {
    expect(buildServerInput(http({ secretEnv: "API_KEY=" })).ok).toBe(true);
    expect(buildServerInput(stdio({ secretHeaders: "Authorization:" })).ok).toBe(true);
  });
});
