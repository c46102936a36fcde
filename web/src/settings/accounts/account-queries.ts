import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { DataOf, QueryOf } from '../../api/types';

export type Account = DataOf<'/v1/accounts/{id}', 'get'>;
export type AccountNote = DataOf<'/v1/accounts/notes/{noteId}', 'get'>;
export type AccountField = DataOf<'/v1/custom-field', 'get'>[number];
export type AttributeName = QueryOf<'/v1/accounts/attributes', 'get'>['attribute'];

export const ACCOUNTS_KEY = ['accounts'] as const;

export const accountQuery = (id: string) =>
  queryOptions({
    queryKey: [...ACCOUNTS_KEY, 'one', id],
    queryFn: () => unwrap(api.GET('/v1/accounts/{id}', { params: { path: { id } } })),
  });

export const notesKey = (accountId: string) => [...ACCOUNTS_KEY, 'one', accountId, 'notes'] as const;

/** The values an attribute (status, health, note type…) may take. */
export const attributeValuesQuery = (attribute: AttributeName) =>
  queryOptions({
    queryKey: ['account-attributes', attribute],
    queryFn: () => unwrap(api.GET('/v1/accounts/attributes', { params: { query: { attribute } } })),
    staleTime: 60_000,
  });

/** The active custom fields of accounts (the first hundred: a form does not hold more). */
export const accountFieldsQuery = queryOptions({
  queryKey: ['custom-fields', 'account'],
  queryFn: async () =>
    (await unwrap(api.GET('/v1/custom-field', { params: { query: { source: 'account', limit: 100 } } }))).data.filter(
      (field) => field.isActive,
    ),
  staleTime: 60_000,
});

export const attachmentQuery = (id: string) =>
  queryOptions({
    queryKey: ['attachments', id, 'metadata'],
    queryFn: async () => (await unwrap(api.GET('/v1/attachments/{id}/metadata', { params: { path: { id } } }))).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
