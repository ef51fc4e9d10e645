// Parses the roots textarea (one directory per line) into the list sent to the engine, and
// formats the engine's file:// URIs back into lines for the edit form.

import type { LineParseResult } from "./LineParseResult";
import { rootUriToPath } from "./rootUriToPath";

/**
 * Mirrors the engine: each line is trimmed, blank lines are ignored, and a root must be an
 * absolute path or a file:// URI (same error wording). Duplicates are dropped, the first kept;
 * a path and the file:// URI of the same directory count as duplicates.
 */
export function parseRootLines(text: string): LineParseResult<string> {
  const items: string[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const root = line.trim();
    if (root === "") continue;
    if (!root.startsWith("/") && !root.startsWith("file://")) {
      errors.push(`the root \`${root}\` must be an absolute path or a file:// URI`);
      continue;
    }
    const key = rootUriToPath(root);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(root);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, items };
}

/** Pre-fills the edit form: one root per line, shown as a plain path where possible. */
export function formatRootLines(uris: readonly string[]): string {
  return uris.map(rootUriToPath).join("\n");
}
