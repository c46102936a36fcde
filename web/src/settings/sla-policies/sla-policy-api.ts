import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { readAllPages } from '../../api/read-all-pages';
import type { BodyOf, DataOf } from '../../api/types';

/** The SLA policies page's reads and writes, through the public API; keys start with the resource. */

export type SlaPolicy = DataOf<'/v1/sla-policies', 'get'>[number];
export type SlaPolicyInput = BodyOf<'/v1/sla-policies', 'post'>;

export const slaPoliciesQuery = queryOptions({
  queryKey: ['sla-policies'],
  queryFn: async () => (await unwrap(api.GET('/v1/sla-policies'))).data,
});

/** Ticket fields of every team and of the organization, which a condition may test. */
export const allTicketFieldsQuery = queryOptions({
  queryKey: ['custom-fields', 'ticket', 'all'],
  queryFn: async () =>
    (
      await readAllPages((cursor) =>
        unwrap(
          api.GET('/v1/custom-field', { params: { query: { source: 'ticket', limit: 100, ...(cursor ? { cursor } : {}) } } }),
        ),
      )
    ).filter((field) => field.isActive),
  staleTime: 60_000,
});

export async function createPolicy(body: SlaPolicyInput) {
  return (await unwrap(api.POST('/v1/sla-policies', { body }))).data;
}

export async function updatePolicy(id: string, body: Partial<SlaPolicyInput>) {
  return (await unwrap(api.PATCH('/v1/sla-policies/{id}', { params: { path: { id } }, body }))).data;
}

/** Every policy in the order of `policyIds`, in one request; answers them in that order. */
export async function reorderPolicies(policyIds: string[]) {
  return (await unwrap(api.POST('/v1/sla-policies/reorder', { body: { policyIds } }))).data;
}

export async function deletePolicy(id: string) {
  await unwrap(api.DELETE('/v1/sla-policies/{id}', { params: { path: { id } } }));
}
