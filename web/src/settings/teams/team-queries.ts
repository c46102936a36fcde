import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { BodyOf, DataOf } from '../../api/types';
import type { CursorPage } from '../../ui/use-cursor-pages';

export type Team = DataOf<'/v1/teams/{teamId}', 'get'>;
export type TeamMember = DataOf<'/v1/teams/{teamId}/members', 'get'>[number];
export type TeamTag = DataOf<'/v1/teams/{teamUuid}/tags', 'get'>['items'][number];
export type TeamConfiguration = DataOf<'/v1/teams/{teamId}/configurations', 'get'>;
export type TeamConfigurationUpdate = BodyOf<'/v1/teams/{teamId}/configurations', 'patch'>;
export type BusinessHoursStatus = DataOf<'/v1/teams/{teamId}/business-hours/status', 'get'>;
export type OrganizationUser = DataOf<'/v1/users/list', 'get'>[number];
export type UserUpdate = BodyOf<'/v1/users/{userId}', 'patch'>;

/** Query keys of the teams area, by resource, so a write invalidates exactly what it changed. */
export const teamKeys = {
  list: ['teams', 'list'] as const,
  team: (teamId: string) => ['teams', teamId] as const,
  members: (teamId: string, search: string) => ['teams', teamId, 'members', search] as const,
  allMembers: (teamId: string) => ['teams', teamId, 'members'] as const,
  subTeams: (teamId: string) => ['teams', teamId, 'sub-teams'] as const,
  tags: (teamId: string) => ['teams', teamId, 'tags'] as const,
  configuration: (teamId: string) => ['teams', teamId, 'configuration'] as const,
  hoursStatus: (teamId: string) => ['teams', teamId, 'business-hours-status'] as const,
  users: ['users', 'list'] as const,
};

const PAGE = 100;

export async function fetchTeamsPage(cursor: string | undefined): Promise<CursorPage<Team>> {
  const body = await unwrap(api.GET('/v1/teams', { params: { query: { limit: PAGE, cursor } } }));
  return { data: body.data, nextCursor: body.nextCursor ?? null };
}

export function fetchMembersPage(teamId: string, search: string) {
  return async (cursor: string | undefined): Promise<CursorPage<TeamMember>> => {
    const query = { limit: PAGE, cursor, ...(search ? { search } : {}) };
    const body = await unwrap(api.GET('/v1/teams/{teamId}/members', { params: { path: { teamId }, query } }));
    return { data: body.data, nextCursor: body.nextCursor ?? null };
  };
}

export async function fetchUsersPage(cursor: string | undefined): Promise<CursorPage<OrganizationUser>> {
  const body = await unwrap(api.GET('/v1/users/list', { params: { query: { limit: PAGE, cursor } } }));
  return { data: body.data, nextCursor: body.nextCursor ?? null };
}

export const teamQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.team(teamId),
    queryFn: async () => (await unwrap(api.GET('/v1/teams/{teamId}', { params: { path: { teamId } } }))).data,
  });

/** The sub-teams a fallback may name: the first hundred, as sub-teams nest one level under a team. */
export const subTeamsQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.subTeams(teamId),
    queryFn: async () =>
      (await unwrap(api.GET('/v1/teams/{teamId}/sub-teams', { params: { path: { teamId }, query: { limit: PAGE } } }))).data,
  });

export const tagsQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.tags(teamId),
    queryFn: async () =>
      (await unwrap(api.GET('/v1/teams/{teamUuid}/tags', { params: { path: { teamUuid: teamId } } }))).data.items,
  });

export const configurationQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.configuration(teamId),
    queryFn: async () => (await unwrap(api.GET('/v1/teams/{teamId}/configurations', { params: { path: { teamId } } }))).data,
  });

/** Open or closed now: asked again every minute, so the line turns when the hours do. */
export const hoursStatusQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.hoursStatus(teamId),
    queryFn: async () =>
      (await unwrap(api.GET('/v1/teams/{teamId}/business-hours/status', { params: { path: { teamId } } }))).data,
    refetchInterval: 60_000,
  });

export type TicketStatus = DataOf<'/v1/tickets/statuses', 'get'>[number];
export type TicketStatusUpdate = BodyOf<'/v1/tickets/statuses/{id}', 'patch'>;
export type SatisfactionSettings = DataOf<'/v1/teams/{teamId}/satisfaction-settings', 'get'>;
export type SatisfactionSettingsInput = BodyOf<'/v1/teams/{teamId}/satisfaction-settings', 'put'>;

export const statusesQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['teams', teamId, 'statuses'] as const,
    queryFn: async () => (await unwrap(api.GET('/v1/tickets/statuses', { params: { query: { teamId } } }))).data,
  });

export const prioritiesQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['teams', teamId, 'priorities'] as const,
    queryFn: async () => (await unwrap(api.GET('/v1/tickets/priorities', { params: { query: { teamId } } }))).data,
  });

export const satisfactionQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['teams', teamId, 'satisfaction-settings'] as const,
    queryFn: async () =>
      (await unwrap(api.GET('/v1/teams/{teamId}/satisfaction-settings', { params: { path: { teamId } } }))).data,
  });

export async function updateStatus(id: string, body: TicketStatusUpdate) {
  return (await unwrap(api.PATCH('/v1/tickets/statuses/{id}', { params: { path: { id } }, body }))).data;
}

export async function putSatisfaction(teamId: string, body: SatisfactionSettingsInput) {
  return (await unwrap(api.PUT('/v1/teams/{teamId}/satisfaction-settings', { params: { path: { teamId } }, body }))).data;
}
