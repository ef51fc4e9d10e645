// Parses the HTTP headers textarea ("Name: value" per line) into HttpHeader records.

import type { HttpHeader } from "../api/gatehouse";
import type { LineParseResult } from "./LineParseResult";

// RFC 9110 token characters: what a header field name may consist of.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Blank lines are ignored. The name is the text before the first ":" and must be a
 * valid header token; the value (after the colon) is trimmed, as HTTP does.
 */
export function parseHeaderLines(text: string): LineParseResult<HttpHeader> {
  const items: HttpHeader[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const colon = line.indexOf(":");
    const name = colon === -1 ? "" : line.slice(0, colon).trim();
    if (colon === -1 || !HEADER_NAME.test(name)) {
      errors.push(`headers line ${index + 1}: expected "Name: value", got "${line.trim()}"`);
      return;
    }
    items.push({ name, value: line.slice(colon + 1).trim() });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, items };
}

/** Inverse of parseHeaderLines, used to pre-fill the edit form. */
export function formatHeaderLines(headers: readonly HttpHeader[]): string {
  return headers.map(({ name, value }) => `${name}: ${value}`).join("\n");
}
