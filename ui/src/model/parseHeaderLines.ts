// Parses a headers textarea ("Name: value" per line) into HttpHeader records;
// the same format serves the plain list and the secret (keyring) list.

import type { HttpHeader } from "../api/gatehouse";
import type { LineParseResult } from "./LineParseResult";

// RFC 9110 token characters: what a header field name may consist of.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

type HeaderLineOptions = {
  /** Marks every parsed header as secret, names the secret list in errors and rejects repeats. */
  secret?: boolean;
};

/**
 * Blank lines are ignored. The name is the text before the first ":" and must be a
 * valid header token; the value (after the colon) is trimmed, as HTTP does.
 * A secret header is one keyring entry, so it may appear only once (names compare
 * case-insensitively, as in HTTP).
 */
export function parseHeaderLines(text: string, { secret = false }: HeaderLineOptions = {}): LineParseResult<HttpHeader> {
  const section = secret ? "secret headers" : "headers";
  const items: HttpHeader[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const lineNo = index + 1;
    const colon = line.indexOf(":");
    const name = colon === -1 ? "" : line.slice(0, colon).trim();
    if (colon === -1 || !HEADER_NAME.test(name)) {
      // A secret line's text is never echoed back: it may be the value itself.
      errors.push(
        secret
          ? `${section} line ${lineNo}: expected "Name: value"`
          : `${section} line ${lineNo}: expected "Name: value", got "${line.trim()}"`,
      );
      return;
    }
    if (secret && seen.has(name.toLowerCase())) {
      errors.push(`${section} line ${lineNo}: header ${name} is set more than once`);
      return;
    }
    seen.add(name.toLowerCase());
    items.push({ name, value: line.slice(colon + 1).trim(), secret });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, items };
}

/** Inverse of parseHeaderLines for plain headers, used to pre-fill the edit form. */
export function formatHeaderLines(headers: readonly HttpHeader[]): string {
  return headers.map(({ name, value }) => `${name}: ${value}`).join("\n");
}

/** Pre-fills the secret list on edit: one `Name:` line (empty value = keep) per stored secret. */
export function formatSecretHeaderLines(names: readonly string[]): string {
  return names.map((name) => `${name}:`).join("\n");
}
