// Tests for the "Name: value" headers textarea parser (plain and secret lists).

import { describe, expect, it } from "vitest";
import { plainHeader, secretHeader } from "../test/serverFixtures";
import { formatHeaderLines, formatSecretHeaderLines, parseHeaderLines } from "./parseHeaderLines";

describe("parseHeaderLines", () => {
  it("parses Name: value lines as plain headers and trims the value", () => {
    expect(parseHeaderLines("Authorization:   Bearer abc  \n\nX-Api-Key:k")).toEqual({
      ok: true,
      items: [plainHeader("Authorization", "Bearer abc"), plainHeader("X-Api-Key", "k")],
    });
  });

  it("keeps colons inside the value", () => {
    expect(parseHeaderLines("X-Url: http://a:1/b")).toEqual({ ok: true, items: [plainHeader("X-Url", "http://a:1/b")] });
  });

  it("rejects a line without a colon, with its line number", () => {
    expect(parseHeaderLines("A: 1\nBearer abc")).toEqual({
      ok: false,
      errors: ['headers line 2: expected "Name: value", got "Bearer abc"'],
    });
  });

  it("rejects header names that are not HTTP tokens", () => {
    const result = parseHeaderLines("Bad Name: x\n: novalue");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toHaveLength(2);
  });

  it("round-trips through formatHeaderLines", () => {
    const headers = [plainHeader("Authorization", "Bearer t")];
    expect(formatHeaderLines(headers)).toBe("Authorization: Bearer t");
    expect(parseHeaderLines(formatHeaderLines(headers))).toEqual({ ok: true, items: headers });
  });
});

describe("parseHeaderLines with secret: true", () => {
  it("marks every header secret; `Name:` gives the empty keep-stored value", () => {
    expect(parseHeaderLines("Authorization: Bearer t\nX-Api-Key:", { secret: true })).toEqual({
      ok: true,
      items: [secretHeader("Authorization", "Bearer t"), secretHeader("X-Api-Key", "")],
    });
  });

  it("rejects a secret header repeated in any letter case, without echoing bad lines", () => {
    const result = parseHeaderLines("Bearer sk-secret\nX-Key: a\nx-key: b", { secret: true });
    expect(result).toEqual({
      ok: false,
      errors: ['secret headers line 1: expected "Name: value"', "secret headers line 3: header x-key is set more than once"],
    });
    expect(JSON.stringify(result)).not.toContain("sk-secret");
  });

  it("formats stored secret names as `Name:` lines that parse back to keep markers", () => {
    const text = formatSecretHeaderLines(["Authorization", "X-Api-Key"]);
    expect(text).toBe("Authorization:\nX-Api-Key:");
    expect(parseHeaderLines(text, { secret: true })).toEqual({
      ok: true,
      items: [secretHeader("Authorization"), secretHeader("X-Api-Key")],
    });
  });
});
