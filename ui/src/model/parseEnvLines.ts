// Parses an environment-variables textarea ("KEY=VALUE" per line) into EnvVar records;
// the same format serves the plain list and the secret (keyring) list.

import type { EnvVar } from "../api/gatehouse";
import type { LineParseResult } from "./LineParseResult";

type EnvLineOptions = {
  /** Marks every parsed variable as secret and names the secret list in error messages. */
  secret?: boolean;
};

/**
 * Blank lines are ignored. The key is the text before the first "=" (trimmed) and
 * must be non-empty without whitespace; the value is everything after it, verbatim.
 */
export function parseEnvLines(text: string, { secret = false }: EnvLineOptions = {}): LineParseResult<EnvVar> {
  const section = secret ? "secret environment" : "environment";
  const items: EnvVar[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const lineNo = index + 1;
    const eq = line.indexOf("=");
    const key = eq === -1 ? "" : line.slice(0, eq).trim();
    if (eq === -1 || key === "" || /\s/.test(key)) {
      // A secret line's text is never echoed back: it may be the value itself.
      errors.push(
        secret
          ? `${section} line ${lineNo}: expected KEY=VALUE`
          : `${section} line ${lineNo}: expected KEY=VALUE, got "${line.trim()}"`,
      );
      return;
    }
    if (seen.has(key)) {
      errors.push(`${section} line ${lineNo}: variable ${key} is set more than once`);
      return;
    }
    seen.add(key);
    items.push({ key, value: line.slice(eq + 1), secret });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, items };
}

/** Inverse of parseEnvLines for plain variables, used to pre-fill the edit form. */
export function formatEnvLines(env: readonly EnvVar[]): string {
  return env.map(({ key, value }) => `${key}=${value}`).join("\n");
}

/** Pre-fills the secret list on edit: one `KEY=` line (empty value = keep) per stored secret. */
export function formatSecretEnvLines(keys: readonly string[]): string {
  return keys.map((key) => `${key}=`).join("\n");
}
