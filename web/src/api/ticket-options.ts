import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { OrganizationUser, Team, TicketOption } from './types';

/** What the filter bar and bulk actions offer changes slowly: kept a minute before asking again. */
const STALE_MS = 60_000;

export const teamsQuery = queryOptions({
  queryKey: ['teams'],
  staleTime: STALE_MS,
  queryFn: async (): Promise<Team[]> => (await unwrap(api.GET('/v1/teams', { params: { query: { limit: 100 } } }))).data,
});

export const usersQuery = queryOptions({
  queryKey: ['users', 'list'],
  staleTime: STALE_MS,
  queryFn: async (): Promise<OrganizationUser[]> =>
    (await unwrap(api.GET('/v1/users/list', { params: { query: { limit: 500 } } }))).data,
});

/** One team's statuses, priorities and ticket tags (with their ids). */
export function teamOptionsQuery(teamId: string) {
  return queryOptions({
    queryKey: ['teams', teamId, 'ticket-options'],
    staleTime: STALE_MS,
    queryFn: async () => {
      const [statuses, priorities, tags] = await Promise.all([
        unwrap(api.GET('/v1/tickets/statuses', { params: { query: { teamId } } })),
        unwrap(api.GET('/v1/tickets/priorities', { params: { query: { teamId } } })),
        unwrap(api.GET('/v1/teams/{teamUuid}/tags', { params: { path: { teamUuid: teamId } } })),
      ]);
      return {
        statuses: statuses.data,
        priorities: priorities.data,
        tags: tags.data.items.filter((tag) => tag.type === 'ticket'),
      };
    },
  });
}

export interface NamedOption {
  /** What the filter and bulk endpoints take: a name, resolved in each ticket's team. */
  name: string;
  isClosed: boolean;
}

/** One entry per display name (teams share the defaults), in the order of the first team that has it. */
function byName(options: readonly Pick<TicketOption, 'displayName' | 'isClosed'>[]): NamedOption[] {
  const seen = new Map<string, NamedOption>();
  for (const option of options) {
    const key = option.displayName.toLowerCase();
    if (!seen.has(key)) {
      seen.set(key, { name: option.displayName, isClosed: option.isClosed });
    }
  }
  return [...seen.values()];
}

export interface InboxOptions {
  teams: Team[];
  users: OrganizationUser[];
  statuses: NamedOption[];
  priorities: NamedOption[];
  tags: string[];
  /** A status to close tickets with: the first closed one (the teams' default is "Closed"). */
  closedStatus: string;
  error: unknown;
}

/** The teams, people, statuses, priorities and tags ticket filters and changes choose from (the inbox, saved views, macros). */
export function useInboxOptions(): InboxOptions {
  const teams = useQuery(teamsQuery);
  const users = useQuery(usersQuery);
  const perTeam = useQueries({ queries: (teams.data ?? []).map((team) => teamOptionsQuery(team.id)) });
  const loaded = perTeam.flatMap((result) => (result.data ? [result.data] : []));
  const statuses = byName(loaded.flatMap((options) => options.statuses));
  return {
    teams: teams.data ?? [],
    users: (users.data ?? []).filter((user) => !user.disabled),
    statuses,
    priorities: byName(loaded.flatMap((options) => options.priorities)),
    tags: [...new Set(loaded.flatMap((options) => options.tags.map((tag) => tag.name)))].sort((a, b) => a.localeCompare(b)),
    closedStatus: statuses.find((status) => status.isClosed)?.name ?? 'Closed',
    error: teams.error ?? users.error ?? perTeam.find((result) => result.error)?.error,
  };
}
