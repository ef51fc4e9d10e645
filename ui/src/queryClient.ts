// The one TanStack Query client of the window: engine data is local, so a failed query is
// retried once, and nothing refetches merely because the window regained focus.

import { QueryClient } from "@tanstack/react-query";

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
