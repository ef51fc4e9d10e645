// The Servers list's search: a server matches when every word of the query is found, without
// regard to case, in its name, its command line or URL, or the name of one of its tools.

import type { ServerView } from "../api/gatehouse";
import { summarizeSpec } from "./summarizeSpec";

/** The query's words, lower-cased; an empty query has none and matches everything. */
export function searchTerms(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((word) => word !== "");
}

/** Whether `view` matches every term, in its name, command or URL, or `toolNames`. */
export function serverMatches(view: ServerView, terms: readonly string[], toolNames: readonly string[] = []): boolean {
  if (terms.length === 0) return true;
  const fields = [view.config.name, summarizeSpec(view.config.spec), ...toolNames].map((f) => f.toLowerCase());
  return terms.every((term) => fields.some((field) => field.includes(term)));
}
