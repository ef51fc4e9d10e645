// The Resources and Prompts tabs' search: an item matches when every word typed appears, in any
// case, in one of its fields (name, title, URI, description).

/** True when each whitespace-separated word of `query` is in one of `fields`. */
export function matchesSearch(query: string, fields: (string | null | undefined)[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return true;
  const haystack = fields
    .filter((f): f is string => typeof f === "string")
    .join("\n")
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}
