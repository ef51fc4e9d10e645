// WCAG AA contrast of the theme's colours, in both themes, read from the CSS itself: every rule
// that sets a text colour is checked against the background it sets (or, setting none, against
// the page's backgrounds) at 4.5:1; the pairs no single rule names (text on a hovered or
// highlighted row) at 4.5:1; and the focus ring and the primary button's fill against the page
// at 3:1 (non-text contrast).

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { colourPairs, contrast, luminance, themeVariables } from "./contrast";

const STYLES = join(__dirname, "..", "styles");
const THEME_CSS = readFileSync(join(STYLES, "theme.css"), "utf8");
const light = themeVariables(THEME_CSS, /^:root,\s*:root\[data-theme="light"\]$/);
const dark = { ...light, ...themeVariables(THEME_CSS, /^:root\[data-theme="dark"\]$/) };
const THEMES = { light, dark } as const;

/** Backgrounds text sits on where a rule sets none. */
const PAGE_BACKGROUNDS = ["--bg", "--surface", "--surface-2"];

const TEXT = 4.5;
const NON_TEXT = 3;

/** Pairs no one rule sets together: [foreground, background, minimum]. */
const EXTRA_PAIRS: [string, string, number][] = [
  ["--text", "--surface-hover", TEXT],
  ["--text-muted", "--surface-hover", TEXT],
  ["--text", "--accent-soft", TEXT],
  ["--text-muted", "--accent-soft", TEXT],
  ["--text", "--neutral-soft", TEXT],
  ["--text-muted", "--neutral-soft", TEXT],
  ["--danger", "--danger-soft", TEXT],
  ["--accent", "--surface", TEXT],
  ["--focus", "--bg", NON_TEXT],
  ["--focus", "--surface", NON_TEXT],
  ["--accent", "--bg", NON_TEXT],
];

function failures(vars: Record<string, string>): string[] {
  const found: string[] = [];
  const check = (where: string, fg: string, bg: string, minimum: number) => {
    const a = vars[fg];
    const b = vars[bg];
    if (a === undefined || b === undefined) {
      found.push(`${where}: ${fg} or ${bg} is not a theme colour`);
      return;
    }
    const ratio = contrast(a, b);
    if (ratio < minimum) found.push(`${where}: ${fg} (${a}) on ${bg} (${b}) is ${ratio.toFixed(2)}:1, under ${minimum}:1`);
  };
  for (const file of readdirSync(STYLES).filter((f) => f.endsWith(".css"))) {
    for (const pair of colourPairs(readFileSync(join(STYLES, file), "utf8"))) {
      for (const bg of pair.background === null ? PAGE_BACKGROUNDS : [pair.background]) check(`${file} ${pair.rule}`, pair.color, bg, TEXT);
    }
  }
  for (const [fg, bg, minimum] of EXTRA_PAIRS) check("theme", fg, bg, minimum);
  return found;
}

describe("theme contrast", () => {
  it("reads both themes' colours from theme.css", () => {
    for (const vars of Object.values(THEMES)) {
      for (const name of ["--bg", "--surface", "--text", "--text-muted", "--accent", "--focus"]) expect(vars[name]).toMatch(/^#[0-9a-f]{6}$/i);
    }
    expect(dark["--bg"]).not.toBe(light["--bg"]);
    expect(colourPairs(readFileSync(join(STYLES, "base.css"), "utf8")).length).toBeGreaterThan(10);
  });

  it.each(Object.keys(THEMES) as (keyof typeof THEMES)[])("meets WCAG AA in the %s theme", (theme) => {
    expect(failures(THEMES[theme])).toEqual([]);
  });

  it("computes WCAG's ratios", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(luminance("#fff")).toBeCloseTo(1, 5);
    expect(() => luminance("red")).toThrow();
  });

  it("finds a pair that fails", () => {
    expect(failures({ ...light, "--text-muted": "#aaaaaa" }).some((f) => f.includes("--text-muted"))).toBe(true);
  });
});
