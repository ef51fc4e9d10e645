// The window's forms and argument checks run a server's regular expressions (the `pattern`s and
// `patternProperties` of tool and elicitation schemas) on RE2JS, which matches in time linear in
// the input, never on the browser's backtracking engine: a server's `^(a+)+$` against
// `aaaa…!` would otherwise hold the window's one thread for as long as it likes.
//
// The schema validator (@cfworker/json-schema) builds those expressions with
// `new RegExp(pattern, "u")`. For the length of one synchronous validation `withLinearRegExp`
// puts `LinearRegExp` in the global `RegExp`'s place, so that is what it builds; the global is
// back before anything else runs. A pattern RE2 cannot run (a back-reference or look-around,
// which need backtracking) is not checked in the window at all: the server, and for edited
// arguments the engine, check it again. A pattern that is not a valid JavaScript regular
// expression still fails as it does natively.

import { RE2JS } from "re2js";

const NativeRegExp = globalThis.RegExp;

/** RE2JS flags for the JavaScript flags that change what matches (`u` is RE2's own reading). */
function re2Flags(flags: string): number {
  let out = 0;
  if (flags.includes("i")) out |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("s")) out |= RE2JS.DOTALL;
  if (flags.includes("m")) out |= RE2JS.MULTILINE;
  return out;
}

/** The linear-time form of a JavaScript pattern, or `null` if RE2 cannot run it. */
export function linearPattern(source: string, flags = ""): RE2JS | null {
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source), re2Flags(flags));
  } catch {
    return null;
  }
}

/** What `new RegExp(pattern, flags)` gives the validator while it runs: `test` on RE2JS. */
export class LinearRegExp {
  readonly source: string;
  readonly flags: string;
  /** Whether the pattern is checked at all (RE2 can run it). */
  readonly checked: boolean;
  private readonly linear: RE2JS | null;

  constructor(pattern: string | RegExp | LinearRegExp, flags?: string) {
    this.source = typeof pattern === "string" ? pattern : pattern.source;
    this.flags = flags ?? (typeof pattern === "string" ? "" : pattern.flags);
    // Compiling is linear in the pattern's length; only matching backtracks. An invalid
    // pattern throws its SyntaxError here, as it would natively.
    new NativeRegExp(this.source, this.flags);
    this.linear = linearPattern(this.source, this.flags);
    this.checked = this.linear !== null;
  }

  test(input: unknown): boolean {
    return this.linear === null || this.linear.test(String(input));
  }
}

/** Runs `validate` (synchronous) with `RegExp` built as `LinearRegExp`, then puts it back. */
export function withLinearRegExp<T>(validate: () => T): T {
  const before = globalThis.RegExp;
  globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return validate();
  } finally {
    globalThis.RegExp = before;
  }
}
