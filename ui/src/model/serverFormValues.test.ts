// Tests for pre-filling the edit form from a saved config, splitting plain and secret entries
// and showing roots as paths.

import { describe, expect, it } from "vitest";
import type { ServerSpec } from "../api/gatehouse";
import { httpSpecWithSecrets, stdioSpecWithSecrets } from "../test/serverFixtures";
import { emptyFormValues, formValuesFromConfig } from "./serverFormValues";

const config = (spec: ServerSpec, roots: string[] = []) => ({
  id: "1",
  name: "x",
  enabled: true,
  roots,
  spec,
  createdAt: "",
  updatedAt: "",
});

describe("formValuesFromConfig", () => {
  it("puts plain env vars in the env field and stored secrets as KEY= lines in the secret field", () => {
    const values = formValuesFromConfig(config(stdioSpecWithSecrets()));
    expect(values.env).toBe("DEBUG=1");
    expect(values.secretEnv).toBe("API_KEY=\nDB_PASSWORD=");
    expect(values.storedSecretEnvKeys).toEqual(["API_KEY", "DB_PASSWORD"]);
    expect(values.storedSecretHeaderNames).toEqual([]);
  });

  it("puts plain headers in the headers field and stored secrets as Name: lines in the secret field", () => {
    const values = formValuesFromConfig(config(httpSpecWithSecrets()));
    expect(values.headers).toBe("X-Client: gatehouse");
    expect(values.secretHeaders).toBe("Authorization:");
    expect(values.storedSecretHeaderNames).toEqual(["Authorization"]);
  });

  it.each([
    ["stdio", stdioSpecWithSecrets()],
    ["http", httpSpecWithSecrets()],
  ])("pre-fills the roots of a %s server as plain paths, one per line", (_kind, spec) => {
    const roots = ["file:///home/me/project", "file:///home/me/My%20Notes", "file:///tmp/x?q"];
    expect(formValuesFromConfig(config(spec, roots)).roots).toBe("/home/me/project\n/home/me/My Notes\nfile:///tmp/x?q");
  });

  it("starts an add form with no secrets stored and no roots", () => {
    expect(emptyFormValues().roots).toBe("");
    expect(formValuesFromConfig(config(stdioSpecWithSecrets())).roots).toBe("");
    expect(emptyFormValues()).toMatchObject({ secretEnv: "", secretHeaders: "", storedSecretEnvKeys: [], storedSecretHeaderNames: [] });
  });
});
