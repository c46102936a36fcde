import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/**
 * The views' keys below `['views']`, the inbox rail's list, so that a save here refreshes the rail:
 * `['views', 'pages']` this area's paged list, `['views', id]` one view with its count.
 */
export const VIEW_PAGES_KEY = ['views', 'pages'] as const;

/** A page of saved views; the built-in ones, which nobody edits, are left out. */
export async function fetchSavedViewPage(cursor: string | undefined) {
  const page = await unwrap(api.GET('/v1/views', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }));
  return { data: page.data.filter((view) => !view.isBuiltIn), nextCursor: page.nextCursor };
}

export const viewQuery = (viewId: string) =>
  queryOptions({
    queryKey: ['views', viewId],
    queryFn: async () => (await unwrap(api.GET('/v1/views/{viewId}', { params: { path: { viewId } } }))).data,
  });

/** "12 tickets", "10000+ tickets", or why there is no count. */
export function ticketCountText(view: { ticketCount: number | null; ticketCountIsCapped: boolean }): string {
  if (view.ticketCount === null) {
    return 'No count: a filter names something gone since';
  }
  const count = `${view.ticketCount.toLocaleString('en')}${view.ticketCountIsCapped ? '+' : ''}`;
  return `${count} ${view.ticketCount === 1 && !view.ticketCountIsCapped ? 'ticket' : 'tickets'}`;
}
