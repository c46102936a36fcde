import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/**
 * The macros' keys below `['macros']`, the ticket page's list of them, so that a save here
 * refreshes the macro picker too: `['macros', 'pages']` this area's paged list, `['macros', id]` one.
 */
export const MACRO_PAGES_KEY = ['macros', 'pages'] as const;

/** A page of the macros whose name holds `nameContains` (all of them when it is blank). */
export async function fetchMacroPage(nameContains: string, cursor: string | undefined) {
  const query = { limit: 50, ...(nameContains ? { nameContains } : {}), ...(cursor ? { cursor } : {}) };
  const page = await unwrap(api.GET('/v1/macros', { params: { query } }));
  return { data: page.data, nextCursor: page.nextCursor };
}

export const macroQuery = (macroId: string) =>
  queryOptions({
    queryKey: ['macros', macroId],
    queryFn: async () => (await unwrap(api.GET('/v1/macros/{macroId}', { params: { path: { macroId } } }))).data,
  });
