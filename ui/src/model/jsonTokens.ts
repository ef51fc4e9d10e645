// A JSON text cut into tokens for highlighting (keys, strings, numbers, literals, punctuation),
// after pretty-printing it; text that is not JSON is one plain token. Pure and linear.

export type TokenKind = "key" | "string" | "number" | "literal" | "plain";
export type Token = { kind: TokenKind; text: string };

const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** The pretty-printed JSON of `text`, or null when `text` is not JSON. */
export function prettyJson(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}

/** The tokens of a JSON text (already pretty-printed). */
export function jsonTokens(json: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of json.matchAll(TOKEN)) {
    const at = match.index;
    if (at > last) tokens.push({ kind: "plain", text: json.slice(last, at) });
    if (match[1] !== undefined) {
      tokens.push({ kind: match[2] !== undefined ? "key" : "string", text: match[1] });
      if (match[2] !== undefined) tokens.push({ kind: "plain", text: match[2] });
    } else if (match[3] !== undefined) {
      tokens.push({ kind: "number", text: match[3] });
    } else {
      tokens.push({ kind: "literal", text: match[0] });
    }
    last = at + match[0].length;
  }
  if (last < json.length) tokens.push({ kind: "plain", text: json.slice(last) });
  return tokens;
}

/** Whether a MIME type says JSON (`application/json`, `…+json`). */
export function isJsonMime(mimeType: string | null | undefined): boolean {
  if (!mimeType) return false;
  const base = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  return base === "application/json" || base.endsWith("+json") || base === "text/json";
}
