// Result type shared by the line-oriented textarea parsers (env, headers, roots).

export type LineParseResult<T> = { ok: true; items: T[] } | { ok: false; errors: string[] };
