import { api, unwrap } from '../../api/client';
import type { BodyOf, DataOf } from '../../api/types';

export type User = DataOf<'/v1/users/{userId}', 'get'>;
export type UserSession = DataOf<'/v1/users/{userId}/sessions', 'get'>[number];
export type UserChange = BodyOf<'/v1/users/{userId}', 'patch'>;
export type NewUser = BodyOf<'/v1/users', 'post'>;

/** Query keys of this area: the list, a user, a user's sessions. */
export const userKeys = {
  list: ['users', 'list'] as const,
  one: (userId: string) => ['users', userId] as const,
  sessions: (userId: string) => ['users', userId, 'sessions'] as const,
};

export const ROLE_LABELS = { ORG_ADMIN: 'Admin', ORG_MEMBER: 'Member' } as const;

export const fetchUsersPage = (cursor: string | undefined) =>
  unwrap(api.GET('/v1/users/list', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }));

export const fetchUser = async (userId: string) =>
  (await unwrap(api.GET('/v1/users/{userId}', { params: { path: { userId } } }))).data;

export const fetchSessionsPage = (userId: string, cursor: string | undefined) =>
  unwrap(
    api.GET('/v1/users/{userId}/sessions', { params: { path: { userId }, query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
  );

export const updateUser = async (userId: string, body: UserChange) =>
  (await unwrap(api.PATCH('/v1/users/{userId}', { params: { path: { userId } }, body }))).data;

export const sendInvitation = (userId: string) => unwrap(api.POST('/v1/users/{userId}/invite', { params: { path: { userId } } }));

/** Adds the user, then emails the invitation; a failed email leaves the user, whom "Resend invitation" reaches. */
export async function createAndInvite(user: NewUser): Promise<User> {
  const created = (await unwrap(api.POST('/v1/users', { body: user }))).data;
  await sendInvitation(created.id);
  return created;
}

export const revokeSession = (userId: string, sessionId: string) =>
  unwrap(api.DELETE('/v1/users/{userId}/sessions/{sessionId}', { params: { path: { userId, sessionId } } }));
