import { describe, expect, it } from "vitest";

import { argumentProblems } from "./argumentProblems";
import { LinearRegExp, withLinearRegExp } from "./linearRegExp";
import { formSchema } from "./toolSchemaValidator";

/** A server's pattern that backtracks exponentially on a run of `a`s that does not match. */
const CATASTROPHIC = "^(a+)+$";
/** Natively about a second and a half on this machine, doubling with every `a` more. */
const EVIL = `${"a".repeat(25)}!`;

describe("server patterns in the window", () => {
  it("a catastrophic pattern is matched in linear time, and the mismatch still reported", () => {
    const inputSchema = { type: "object", properties: { name: { type: "string", pattern: CATASTROPHIC } } };
    const started = performance.now();
    const problems = argumentProblems(inputSchema, { name: EVIL });
    const { schema, validator } = formSchema(inputSchema);
    const form = validator.validateFormData({ name: EVIL }, schema);
    const elapsed = performance.now() - started;
    expect(problems).toEqual(["/name: must match the pattern"]);
    expect(form.errors.map((e) => e.name)).toEqual(["pattern"]);
    expect(elapsed, "the checks take milliseconds, not the seconds of backtracking").toBeLessThan(250);
    expect(argumentProblems(inputSchema, { name: "aaaa" })).toEqual([]);
  });

  it("a pattern that needs backtracking is left unchecked, and the global RegExp is put back", () => {
    const native = globalThis.RegExp;
    const twice = { twice: { type: "string", pattern: "^(a+)\\1$" } };
    expect(argumentProblems({ type: "object", properties: twice }, { twice: "aaa!" })).toEqual([]);
    expect(globalThis.RegExp).toBe(native);
    const broken = { type: "object", properties: { ...twice, port: { $ref: "#/$defs/missing" } } };
    expect(argumentProblems(broken, { twice: "aa", port: 1 })[0]).toMatch(/cannot be checked/);
    expect(globalThis.RegExp, "restored even when the validation throws").toBe(native);
    expect(new LinearRegExp("^(a+)\\1$").checked).toBe(false);
    expect(new LinearRegExp(CATASTROPHIC).checked).toBe(true);
  });

  it("a pattern that is not a JavaScript regular expression still fails the regex format", () => {
    const { schema, validator } = formSchema({ type: "object", properties: { re: { type: "string", format: "regex" } } });
    expect(validator.rawValidation(schema, { re: "(" }).errors).toBeDefined();
    expect(validator.rawValidation(schema, { re: "^(a+)\\1$" }).errors).toBeUndefined();
    const unclosed = "(";
    expect(() => withLinearRegExp(() => new RegExp(unclosed, "u"))).toThrow(SyntaxError);
  });

  it("case-insensitive, multi-line and dot-all flags keep their meaning", () => {
    expect(new LinearRegExp("^abc$", "i").test("ABC")).toBe(true);
    expect(new LinearRegExp("^b$", "m").test("a\nb")).toBe(true);
    expect(new LinearRegExp("a.b", "s").test("a\nb")).toBe(true);
    expect(new LinearRegExp("a.b", "u").test("a\nb")).toBe(false);
    expect(new LinearRegExp("\\u00e9", "u").test("café")).toBe(true);
    expect(new LinearRegExp(CATASTROPHIC, "u").test(`${"a".repeat(100_000)}!`)).toBe(false);
  });
});
