// Parses the environment-variables textarea ("KEY=VALUE" per line) into EnvVar records.

import type { EnvVar } from "../api/gatehouse";
import type { LineParseResult } from "./LineParseResult";

/**
 * Blank lines are ignored. The key is the text before the first "=" (trimmed) and
 * must be non-empty without whitespace; the value is everything after it, verbatim.
 */
export function parseEnvLines(text: string): LineParseResult<EnvVar> {
  const items: EnvVar[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const lineNo = index + 1;
    const eq = line.indexOf("=");
    const key = eq === -1 ? "" : line.slice(0, eq).trim();
    if (eq === -1 || key === "" || /\s/.test(key)) {
      errors.push(`environment line ${lineNo}: expected KEY=VALUE, got "${line.trim()}"`);
      return;
    }
    if (seen.has(key)) {
      errors.push(`environment line ${lineNo}: variable ${key} is set more than once`);
      return;
    }
    seen.add(key);
    items.push({ key, value: line.slice(eq + 1) });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, items };
}

/** Inverse of parseEnvLines, used to pre-fill the edit form. */
export function formatEnvLines(env: readonly EnvVar[]): string {
  return env.map(({ key, value }) => `${key}=${value}`).join("\n");
}
