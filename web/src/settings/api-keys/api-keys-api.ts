import { api, unwrap } from '../../api/client';
import type { DataOf } from '../../api/types';

export type ApiKeySummary = DataOf<'/v1/users/{userId}/api-keys', 'get'>[number];
export type IssuedApiKey = DataOf<'/v1/users/{userId}/api-keys', 'post'>;

export const apiKeyKeys = { ofUser: (userId: string) => ['users', userId, 'api-keys'] as const };

export const fetchApiKeysPage = (userId: string, cursor: string | undefined) =>
  unwrap(
    api.GET('/v1/users/{userId}/api-keys', { params: { path: { userId }, query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
  );

export const issueApiKey = async (userId: string, name: string) =>
  (await unwrap(api.POST('/v1/users/{userId}/api-keys', { params: { path: { userId } }, body: { name } }))).data;

export const revokeApiKey = (userId: string, prefix: string) =>
  unwrap(api.DELETE('/v1/users/{userId}/api-keys/{prefix}', { params: { path: { userId, prefix } } }));
