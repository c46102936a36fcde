import { api, unwrap } from '../../api/client';
import type { BodyOf, DataOf } from '../../api/types';

export type NotificationPreferences = DataOf<'/v1/users/me/notifications', 'get'>;
export type NotificationChange = BodyOf<'/v1/users/me/notifications', 'patch'>;

export const notificationKeys = { ofUser: (userId: string) => ['users', userId, 'notifications'] as const };

/** The signed-in user's own switches come from `/me` (any member may), anyone else's from the admins' route. */
export async function fetchPreferences(userId: string, isSelf: boolean): Promise<NotificationPreferences> {
  const answer = isSelf
    ? await unwrap(api.GET('/v1/users/me/notifications'))
    : await unwrap(api.GET('/v1/users/{userId}/notifications', { params: { path: { userId } } }));
  return answer.data;
}

export async function savePreferences(userId: string, isSelf: boolean, body: NotificationChange) {
  const answer = isSelf
    ? await unwrap(api.PATCH('/v1/users/me/notifications', { body }))
    : await unwrap(api.PATCH('/v1/users/{userId}/notifications', { params: { path: { userId } }, body }));
  return answer.data;
}
