// Tests for the cross-checks of a secret list: set twice, and empty values only for stored secrets.

import { describe, expect, it } from "vitest";
import { checkSecretEntries } from "./checkSecretEntries";

const check = (overrides: Partial<Parameters<typeof checkSecretEntries>[0]>) =>
  checkSecretEntries({ plainNames: [], secrets: [], storedNames: [], caseInsensitive: false, ...overrides });

describe("checkSecretEntries", () => {
  it("accepts secrets with values and empty values for stored secrets", () => {
    expect(
      check({ secrets: [{ name: "NEW", value: "v" }, { name: "OLD", value: "" }], storedNames: ["OLD"], plainNames: ["DEBUG"] }),
    ).toEqual([]);
  });

  it("requires a value for a secret that is not stored yet, with the engine's wording", () => {
    expect(check({ secrets: [{ name: "API_KEY", value: "" }] })).toEqual(["the secret `API_KEY` needs a value"]);
    // Stored names match exactly, as in the engine.
    expect(check({ secrets: [{ name: "api_key", value: "" }], storedNames: ["API_KEY"] })).toEqual([
      "the secret `api_key` needs a value",
    ]);
  });

  it("rejects a name that is in both the plain and the secret list", () => {
    expect(check({ plainNames: ["TOKEN"], secrets: [{ name: "TOKEN", value: "x" }] })).toEqual(["`TOKEN` is set twice"]);
  });

  it("compares header names case-insensitively only when asked", () => {
    const secrets = [{ name: "authorization", value: "Bearer t" }];
    expect(check({ plainNames: ["Authorization"], secrets, caseInsensitive: true })).toEqual(["`authorization` is set twice"]);
    expect(check({ plainNames: ["Authorization"], secrets })).toEqual([]);
  });
});
