// WCAG 2 contrast, and the theme's colours read from the CSS: the custom properties of each
// theme's block in styles/theme.css, and the colour pairs the window's rules set together.

/** The relative luminance of a `#rgb` or `#rrggbb` colour (WCAG 2.x). */
export function luminance(hex: string): number {
  const digits = hex.replace("#", "");
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
  if (!/^[0-9a-fA-F]{6}$/.test(full)) throw new Error(`not a hex colour: ${hex}`);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The custom properties (`--name: value`) set in the CSS block whose selector matches. */
export function themeVariables(css: string, selector: RegExp): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const block of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const [, selectors = "", body = ""] = block;
    if (!selector.test(selectors.replace(/\/\*[\s\S]*?\*\//g, "").trim())) continue;
    for (const [, name = "", value = ""] of body.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) vars[name] = value.trim();
  }
  return vars;
}

export type CssPair = { rule: string; color: string; background: string | null };

/** For every rule that sets `color: var(--x)`: the colour, and the background it sets with it. */
export function colourPairs(css: string): CssPair[] {
  const pairs: CssPair[] = [];
  const clean = css.replace(/\/\*[\s\S]*?\*\//g, "");
  for (const [, selectors = "", body = ""] of clean.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const color = /(?:^|[;\s])color:\s*var\((--[\w-]+)\)/.exec(body)?.[1];
    if (color === undefined) continue;
    const background = /background(?:-color)?:\s*var\((--[\w-]+)\)/.exec(body)?.[1] ?? null;
    pairs.push({ rule: selectors.trim().replace(/\s+/g, " "), color, background });
  }
  return pairs;
}
