// Tests for the KEY=VALUE environment textarea parser (plain and secret lists).

import { describe, expect, it } from "vitest";
import { plainEnv, secretEnv } from "../test/serverFixtures";
import { formatEnvLines, formatSecretEnvLines, parseEnvLines } from "./parseEnvLines";

describe("parseEnvLines", () => {
  it("parses KEY=VALUE lines as plain variables, skipping blank lines", () => {
    expect(parseEnvLines("A=1\n\n  \nB=two words\r\n")).toEqual({
      ok: true,
      items: [plainEnv("A", "1"), plainEnv("B", "two words")],
    });
  });

  it("splits on the first '=' only and keeps the value verbatim", () => {
    expect(parseEnvLines("TOKEN=abc=def==")).toEqual({ ok: true, items: [plainEnv("TOKEN", "abc=def==")] });
    expect(parseEnvLines("EMPTY=")).toEqual({ ok: true, items: [plainEnv("EMPTY", "")] });
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
    const env = [plainEnv("A", "1"), plainEnv("B", "x=y")];
    expect(formatEnvLines(env)).toBe("A=1\nB=x=y");
    expect(parseEnvLines(formatEnvLines(env))).toEqual({ ok: true, items: env });
  });
});

describe("parseEnvLines with secret: true", () => {
  it("marks every variable secret and keeps empty values (the keep-stored marker)", () => {
    expect(parseEnvLines("API_KEY=sk-123\nOLD=", { secret: true })).toEqual({
      ok: true,
      items: [secretEnv("API_KEY", "sk-123"), secretEnv("OLD", "")],
    });
  });

  it("names the secret list in errors and never echoes a malformed line (it may be the value)", () => {
    const result = parseEnvLines("sk-live-abcdef\nA=1\nA=2", { secret: true });
    expect(result).toEqual({
      ok: false,
      errors: ["secret environment line 1: expected KEY=VALUE", "secret environment line 3: variable A is set more than once"],
    });
    expect(JSON.stringify(result)).not.toContain("sk-live-abcdef");
  });

  it("formats stored secret keys as empty-valued lines that parse back to keep markers", () => {
    const text = formatSecretEnvLines(["API_KEY", "DB_PASSWORD"]);
    expect(text).toBe("API_KEY=\nDB_PASSWORD=");
    expect(parseEnvLines(text, { secret: true })).toEqual({ ok: true, items: [secretEnv("API_KEY"), secretEnv("DB_PASSWORD")] });
  });
});
