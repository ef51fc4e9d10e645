// Tests for the KEY=VALUE environment textarea parser.

import { describe, expect, it } from "vitest";
import { formatEnvLines, parseEnvLines } from "./parseEnvLines";

describe("parseEnvLines", () => {
  it("parses KEY=VALUE lines, skipping blank lines", () => {
    expect(parseEnvLines("A=1\n\n  \nB=two words\r\n")).toEqual({
      ok: true,
      items: [
        { key: "A", value: "1" },
        { key: "B", value: "two words" },
      ],
    });
  });

  it("splits on the first '=' only and keeps the value verbatim", () => {
    expect(parseEnvLines("TOKEN=abc=def==")).toEqual({ ok: true, items: [{ key: "TOKEN", value: "abc=def==" }] });
    expect(parseEnvLines("EMPTY=")).toEqual({ ok: true, items: [{ key: "EMPTY", value: "" }] });
  });

  it("treats an empty textarea as no variables", () => {
    expect(parseEnvLines("")).toEqual({ ok: true, items: [] });
  });

  it("reports a line without '=' with its line number", () => {
    const result = parseEnvLines("A=1\nnot a pair");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toEqual(['environment line 2: expected KEY=VALUE, got "not a pair"']);
  });

  it("rejects an empty key and a key with whitespace", () => {
    const result = parseEnvLines("=value\nMY KEY=1");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(2);
      expect(result.errors[0]).toMatch(/^environment line 1:/);
      expect(result.errors[1]).toMatch(/^environment line 2:/);
    }
  });

  it("rejects a variable set twice", () => {
    const result = parseEnvLines("A=1\nA=2");
    expect(result).toEqual({ ok: false, errors: ["environment line 2: variable A is set more than once"] });
  });

  it("round-trips through formatEnvLines", () => {
    const env = [
      { key: "A", value: "1" },
      { key: "B", value: "x=y" },
    ];
    expect(formatEnvLines(env)).toBe("A=1\nB=x=y");
    expect(parseEnvLines(formatEnvLines(env))).toEqual({ ok: true, items: env });
  });
});
