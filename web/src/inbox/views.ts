import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { DataOf } from '../api/types';

export type View = DataOf<'/v1/views', 'get'>[number];

/** The built-in views, then the user's own and their teams', with their counts. */
export const viewsQuery = queryOptions({
  queryKey: ['views'],
  queryFn: async () => (await unwrap(api.GET('/v1/views', { params: { query: { limit: 50 } } }))).data,
});
