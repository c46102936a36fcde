import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';

export interface CursorPage<Item> {
  data: Item[];
  nextCursor: string | null;
}

/**
 * A list the API pages by cursor: the first page at once, the next on "Load more", so a list of
 * 10,000 rows costs one page at a time.
 */
export function useCursorPages<Item>(queryKey: QueryKey, fetchPage: (cursor: string | undefined) => Promise<CursorPage<Item>>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  return {
    items: query.data?.pages.flatMap((page) => page.data) ?? [],
    isPending: query.isPending,
    error: query.error,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => query.fetchNextPage(),
    refetch: () => query.refetch(),
  };
}
