import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { readAllPages } from '../../api/read-all-pages';
import type { BodyOf, DataOf } from '../../api/types';

/**
 * The routing page's reads and writes, through the public API. Keys start with the resource
 * (`teams`, `routing-rules`…) so a change elsewhere that invalidates a resource reaches them.
 */

export type RoutingTeam = DataOf<'/v1/teams', 'get'>[number];
export type RoutingRule = DataOf<'/v1/teams/{teamId}/routing', 'get'>[number];
export type RuleInput = BodyOf<'/v1/teams/{teamId}/routing', 'post'>;
export type Simulation = DataOf<'/v1/teams/{teamId}/routing/simulate', 'post'>;
export type SimulationInput = BodyOf<'/v1/teams/{teamId}/routing/simulate', 'post'>;
export type TicketOptionChoice = DataOf<'/v1/tickets/priorities', 'get'>[number];
export type TeamTagChoice = DataOf<'/v1/teams/{teamUuid}/tags', 'get'>['items'][number];

const withCursor = (cursor: string | undefined) => (cursor ? { cursor } : {});

export const routingTeamsQuery = queryOptions({
  queryKey: ['teams', 'routing-choices'],
  queryFn: () =>
    readAllPages((cursor) => unwrap(api.GET('/v1/teams', { params: { query: { limit: 100, ...withCursor(cursor) } } }))),
  staleTime: 30_000,
});

export const rulesQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['routing-rules', teamId],
    queryFn: async () => (await unwrap(api.GET('/v1/teams/{teamId}/routing', { params: { path: { teamId } } }))).data,
  });

export const prioritiesQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['ticket-priorities', teamId],
    queryFn: async () => (await unwrap(api.GET('/v1/tickets/priorities', { params: { query: { teamId } } }))).data,
    staleTime: 60_000,
  });

export const statusesQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['ticket-statuses', teamId],
    queryFn: async () => (await unwrap(api.GET('/v1/tickets/statuses', { params: { query: { teamId } } }))).data,
    staleTime: 60_000,
  });

export const teamTagsQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['team-tags', teamId],
    queryFn: async () =>
      (await unwrap(api.GET('/v1/teams/{teamUuid}/tags', { params: { path: { teamUuid: teamId } } }))).data.items.filter(
        (tag) => tag.type === 'ticket',
      ),
    staleTime: 60_000,
  });

/** Active ticket fields of the team and of the whole organization. */
export const ticketFieldsQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['custom-fields', 'ticket', teamId],
    queryFn: async () =>
      (
        await readAllPages((cursor) =>
          unwrap(
            api.GET('/v1/custom-field', { params: { query: { source: 'ticket', teamId, limit: 100, ...withCursor(cursor) } } }),
          ),
        )
      ).filter((field) => field.isActive),
    staleTime: 60_000,
  });

export async function createRule(teamId: string, body: RuleInput) {
  return (await unwrap(api.POST('/v1/teams/{teamId}/routing', { params: { path: { teamId } }, body }))).data;
}

export async function updateRule(teamId: string, ruleId: string, body: Partial<RuleInput>) {
  return (await unwrap(api.PATCH('/v1/teams/{teamId}/routing/{ruleId}', { params: { path: { teamId, ruleId } }, body }))).data;
}

/** The team's rules in the order of `ruleIds` (every rule once), in one request; answers them in that order. */
export async function reorderRules(teamId: string, ruleIds: string[]) {
  return (await unwrap(api.POST('/v1/teams/{teamId}/routing/reorder', { params: { path: { teamId } }, body: { ruleIds } }))).data;
}

export async function deleteRule(teamId: string, ruleId: string) {
  await unwrap(api.DELETE('/v1/teams/{teamId}/routing/{ruleId}', { params: { path: { teamId, ruleId } } }));
}

export async function simulate(teamId: string, body: SimulationInput) {
  return (await unwrap(api.POST('/v1/teams/{teamId}/routing/simulate', { params: { path: { teamId } }, body }))).data;
}
