import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { BodyOf, DataOf } from '../../api/types';

export type Webhook = DataOf<'/v1/webhooks/{id}', 'get'>;
export type WebhookCreate = BodyOf<'/v1/webhooks', 'post'>;
export type WebhookUpdate = BodyOf<'/v1/webhooks/{id}', 'patch'>;
export type WebhookDelivery = DataOf<'/v1/webhooks/{id}/deliveries', 'get'>[number];
export type DeliveryAttempt = WebhookDelivery['attempts'][number];

/** Every webhook query starts with this key, so a change refreshes the list, the page and its log. */
export const WEBHOOKS_KEY = ['webhooks'] as const;

export const deliveriesKey = (id: string) => [...WEBHOOKS_KEY, id, 'deliveries'] as const;

export const fetchWebhookPage = (cursor: string | undefined) =>
  unwrap(api.GET('/v1/webhooks', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }));

export const fetchDeliveryPage = (id: string) => (cursor: string | undefined) =>
  unwrap(
    api.GET('/v1/webhooks/{id}/deliveries', {
      params: { path: { id }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
    }),
  );

export const webhookQuery = (id: string) =>
  queryOptions({
    queryKey: [...WEBHOOKS_KEY, id],
    queryFn: async () => (await unwrap(api.GET('/v1/webhooks/{id}', { params: { path: { id } } }))).data,
  });

export const createWebhook = async (body: WebhookCreate) => (await unwrap(api.POST('/v1/webhooks', { body }))).data;

export const updateWebhook = async (id: string, body: WebhookUpdate) =>
  (await unwrap(api.PATCH('/v1/webhooks/{id}', { params: { path: { id } }, body }))).data;

export const deleteWebhook = (id: string) => async () =>
  (await unwrap(api.DELETE('/v1/webhooks/{id}', { params: { path: { id } } }))).data;

export const rotateSecret = (id: string) => async () =>
  (await unwrap(api.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } }))).data;

export const sendTestEvent = (id: string) => async () =>
  (await unwrap(api.POST('/v1/webhooks/{id}/test', { params: { path: { id } } }))).data;

export const retryDelivery = (id: string, deliveryId: string) => async () =>
  (await unwrap(api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { path: { id, deliveryId } } }))).data;

/** A webhook action whose answer changes the page: the webhook and its log are read again. */
export function useWebhookAction<T>(id: string, action: () => Promise<T>, onDone?: (answer: T) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: (answer) => {
      onDone?.(answer);
      void queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_KEY, id] });
    },
  });
}

/** An attempt's error when it says more than its status code (no answer, a redirect not followed). */
export function attemptProblem(attempt: DeliveryAttempt): string | null {
  return attempt.error && attempt.error !== `answered ${attempt.statusCode}` ? attempt.error : null;
}
