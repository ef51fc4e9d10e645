// Tests for JSON highlighting tokens: every character kept, keys told from string values.

import { describe, expect, it } from "vitest";
import { isJsonMime, jsonTokens, prettyJson } from "./jsonTokens";

describe("jsonTokens", () => {
  it("keeps every character and tells keys from values", () => {
    const json = prettyJson('{"a":"x \\"q\\"","b":[1,-2.5e-7,null,false]}') ?? "";
    const tokens = jsonTokens(json);
    expect(tokens.map((t) => t.text).join("")).toBe(json);
    expect(tokens.filter((t) => t.kind === "key").map((t) => t.text)).toEqual(['"a"', '"b"']);
    expect(tokens.filter((t) => t.kind === "string").map((t) => t.text)).toEqual(['"x \\"q\\""']);
    expect(tokens.filter((t) => t.kind === "number").map((t) => t.text)).toEqual(["1", "-2.5e-7"]);
    expect(tokens.filter((t) => t.kind === "literal").map((t) => t.text)).toEqual(["null", "false"]);
  });

  it("knows JSON by its MIME type and by parsing", () => {
    expect(isJsonMime("application/json")).toBe(true);
    expect(isJsonMime("application/ld+json; charset=utf-8")).toBe(true);
    expect(isJsonMime("text/plain")).toBe(false);
    expect(isJsonMime(null)).toBe(false);
    expect(prettyJson("{nope")).toBeNull();
  });
});
