import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { DataOf } from '../../api/types';

export type CustomField = DataOf<'/v1/custom-field/{uid}', 'get'>;
export type TeamSummary = DataOf<'/v1/teams', 'get'>[number];

/** Every custom-field read of the console sits below this key (the ticket page's included), so a save refreshes them all. */
export const CUSTOM_FIELDS_KEY = ['custom-fields'] as const;

export const customFieldQuery = (uid: string) =>
  queryOptions({
    queryKey: [...CUSTOM_FIELDS_KEY, 'one', uid],
    queryFn: async () => (await unwrap(api.GET('/v1/custom-field/{uid}', { params: { path: { uid } } }))).data,
  });

/** A user's name, for saying who changed a field; null when the user is gone. */
export const userNameQuery = (userId: string) =>
  queryOptions({
    queryKey: ['users', userId, 'name'],
    queryFn: async () => {
      try {
        return (await unwrap(api.GET('/v1/users/{userId}', { params: { path: { userId } } }))).data.name;
      } catch {
        return null;
      }
    },
    staleTime: 5 * 60_000,
  });

/** The organization's teams, for the team filter and a field's team (the first pages: a helpdesk has tens, not thousands). */
export const teamsQuery = queryOptions({
  queryKey: ['teams', 'all'],
  queryFn: async () => {
    const teams: TeamSummary[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await unwrap(api.GET('/v1/teams', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
      teams.push(...answer.data);
      if (!answer.nextCursor) {
        break;
      }
      cursor = answer.nextCursor;
    }
    return teams;
  },
  staleTime: 60_000,
});
