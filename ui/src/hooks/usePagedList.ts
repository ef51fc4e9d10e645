// A server's list shown a page at a time (resources, resource templates, prompts): TanStack
// Query's infinite query under `[name, serverId]`, each page asked with the cursor the last one
// gave; "Load more" asks for the next. Loaded only while `enabled` (the server is connected and
// offers the list).

import { useInfiniteQuery } from "@tanstack/react-query";
import type { ListPage } from "../api/gatehouse";

export type PagedList<T> = {
  /** Every item of the pages loaded so far, in order. */
  items: T[];
  /** Entries without the expected shape, kept as the server sent them. */
  malformed: number;
  loading: boolean;
  error: unknown;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  reload: () => void;
};

/** `load` must be a stable (module-level) function. */
export function usePagedList<T>(
  name: string,
  serverId: string,
  enabled: boolean,
  load: (serverId: string, cursor: string | null) => Promise<ListPage<T>>,
): PagedList<T> {
  const query = useInfiniteQuery({
    queryKey: [name, serverId],
    queryFn: ({ pageParam }) => load(serverId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
    retry: false,
  });
  const pages = query.data?.pages ?? [];
  return {
    items: pages.flatMap((page) => page.items),
    malformed: pages.reduce((n, page) => n + page.malformed.length, 0),
    loading: query.isPending && enabled,
    error: query.error,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
    reload: () => void query.refetch(),
  };
}
