// Tests for the "Name: value" headers textarea parser.

import { describe, expect, it } from "vitest";
import { formatHeaderLines, parseHeaderLines } from "./parseHeaderLines";

describe("parseHeaderLines", () => {
  it("parses Name: value lines and trims the value", () => {
    expect(parseHeaderLines("Authorization:   Bearer abc  \n\nX-Api-Key:k")).toEqual({
      ok: true,
      items: [
        { name: "Authorization", value: "Bearer abc" },
        { name: "X-Api-Key", value: "k" },
      ],
    });
  });

  it("keeps colons inside the value", () => {
    expect(parseHeaderLines("X-Url: http://a:1/b")).toEqual({
      ok: true,
      items: [{ name: "X-Url", value: "http://a:1/b" }],
    });
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
    const headers = [{ name: "Authorization", value: "Bearer t" }];
    expect(formatHeaderLines(headers)).toBe("Authorization: Bearer t");
    expect(parseHeaderLines(formatHeaderLines(headers))).toEqual({ ok: true, items: headers });
  });
});
