// Tests for pre-filling the edit form from a saved config, splitting plain and secret entries.

import { describe, expect, it } from "vitest";
import type { ServerSpec } from "../api/gatehouse";
import { httpSpecWithSecrets, stdioSpecWithSecrets } from "../test/serverFixtures";
import { emptyFormValues, formValuesFromConfig } from "./serverFormValues";

const config = (spec: ServerSpec) => ({
  id: "1",
  name: "x",
  enabled: true,
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

  it("starts an add form with no secrets stored", () => {
    expect(emptyFormValues()).toMatchObject({ secretEnv: "", secretHeaders: "", storedSecretEnvKeys: [], storedSecretHeaderNames: [] });
  });
});
