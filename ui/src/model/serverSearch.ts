// The Servers list's search: a server matches when every word of the query is found, without
// regard to case, in its name, its command line or URL, or the name of one of its tools (the
// same word matching as the Resources and Prompts searches, `offerSearch.ts`).

import type { ServerView } from "../api/gatehouse";
import { matchesSearch } from "./offerSearch";
import { summarizeSpec } from "./summarizeSpec";

/** Whether `view` matches every word of `query`, in its name, command or URL, or `toolNames`. */
export function serverMatches(view: ServerView, query: string, toolNames: readonly string[] = []): boolean {
  return matchesSearch(query, [view.config.name, summarizeSpec(view.config.spec), ...toolNames]);
}
