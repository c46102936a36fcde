import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import type { TypeBoxApp } from '../../http/typebox-app.js';
import { parseOutboundPolicy } from '../../lib/guarded-fetch.js';
import { createSecretBox } from '../../lib/secret-box.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../platform.envelope.js';
import {
  CreateWebhookSchema,
  DeliveryParamsSchema,
  DeliverySchema,
  ListDeliveriesQuerySchema,
  ListWebhooksQuerySchema,
  UpdateWebhookSchema,
  WebhookParamsSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from './webhook.schemas.js';
import { createWebhookSender } from './webhook.sender.js';
import {
  changeWebhook,
  createWebhook,
  getWebhook,
  listOrganizationWebhooks,
  listWebhookDeliveries,
  removeWebhook,
  retryDelivery,
  rotateSecret,
  sendTestEvent,
  type WebhookRuntime,
} from './webhook.service.js';

const tags = ['webhooks'];

/** Signed webhooks of the event log; organization admins only. Deliveries are sent by `webhook.worker.ts`. */
export function webhookRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const policy = parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS);
  const runtime: WebhookRuntime = {
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    policy,
    box: createSecretBox(deps.secretKey),
    // For test events, sent from the request.
    sender: createWebhookSender(policy),
  };
  return async (app) => {
    app.addHook('onClose', async () => runtime.sender.close());

    registerEndpointRoutes(app, deps, runtime);
    registerDeliveryRoutes(app, deps, runtime);
  };
}

/** Endpoints: register, list, read, change, delete. */
function registerEndpointRoutes(app: TypeBoxApp, deps: AppDeps, runtime: WebhookRuntime): void {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);

  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'platform.webhooks.create',
        tags,
        summary: 'Register a webhook; the answer holds its signing secret, shown only this once',
        description:
          'Events of the given types that happen from now on are POSTed to `url`, signed as Standard Webhooks ' +
          '(`webhook-id`, `webhook-timestamp`, `webhook-signature`), the body being the event as GET /v1/events ' +
          'shows it. The caller becomes its owner: it receives what the owner may see. A URL the outbound guard ' +
          'refuses or an unknown event type is a 400 naming it.',
        body: CreateWebhookSchema,
        response: { 201: PlatformEnvelopeSchema(WebhookWithSecretSchema), ...platformErrorResponses([400, 403]) },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await createWebhook(runtime, request.principal, request.body))),
  );

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'platform.webhooks.list',
        tags,
        summary: "The organization's webhooks, oldest first (secrets are never shown again)",
        querystring: ListWebhooksQuerySchema,
        response: { 200: PlatformListEnvelopeSchema(Type.Array(WebhookSchema)), ...platformErrorResponses([400, 403]) },
      },
    },
    async (request) => {
      const page = await listOrganizationWebhooks(deps.db, request.principal, request.query);
      return platformListEnvelope(deps.clock, page.items, page.nextCursor);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'platform.webhooks.get',
        tags,
        summary: 'One webhook',
        params: WebhookParamsSchema,
        response: { 200: PlatformEnvelopeSchema(WebhookSchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request) => ok(await getWebhook(deps.db, request.principal, request.params.id)),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'platform.webhooks.update',
        tags,
        summary: 'Change the fields sent; enabled=true turns a disabled webhook back on',
        params: WebhookParamsSchema,
        body: UpdateWebhookSchema,
        response: { 200: PlatformEnvelopeSchema(WebhookSchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request) => ok(await changeWebhook(runtime, request.principal, request.params.id, request.body)),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'platform.webhooks.delete',
        tags,
        summary: 'Delete a webhook and its deliveries; answers with the deleted webhook',
        params: WebhookParamsSchema,
        response: { 200: PlatformEnvelopeSchema(WebhookSchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request) => ok(await removeWebhook(deps.db, request.principal, request.params.id)),
  );
}

/** An endpoint's signing secret rotated, its deliveries listed and retried, a test event sent. */
function registerDeliveryRoutes(app: TypeBoxApp, deps: AppDeps, runtime: WebhookRuntime): void {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        operationId: 'platform.webhooks.rotateSecret',
        tags,
        summary: 'Replace the signing secret; the old one keeps signing beside it for 24 hours',
        description:
          'The answer holds the new secret, shown only this once. Until previousSecretExpiresAt, `webhook-signature` ' +
          'carries a signature by each secret, so receivers verify with either while they switch.',
        params: WebhookParamsSchema,
        response: { 200: PlatformEnvelopeSchema(WebhookWithSecretSchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request) => ok(await rotateSecret(runtime, request.principal, request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'platform.webhooks.deliveries.list',
        tags,
        summary: "A webhook's deliveries, newest first, each with its attempts (status code, latency, start of the answer)",
        params: WebhookParamsSchema,
        querystring: ListDeliveriesQuerySchema,
        response: {
          200: PlatformListEnvelopeSchema(Type.Array(DeliverySchema)),
          ...platformErrorResponses([400, 403, 404]),
        },
      },
    },
    async (request) => {
      const page = await listWebhookDeliveries(deps.db, request.principal, request.params.id, request.query);
      return platformListEnvelope(deps.clock, page.items, page.nextCursor);
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        operationId: 'platform.webhooks.deliveries.retry',
        tags,
        summary: 'Send a delivered or failed delivery again, once, with the next worker pass',
        description:
          "Same webhook-id and body, signed anew; out of the endpoint's order and not retried if it fails. A pending " +
          'or delivering delivery, or a disabled webhook, is a 409.',
        params: DeliveryParamsSchema,
        response: { 202: PlatformEnvelopeSchema(DeliverySchema), ...platformErrorResponses([400, 403, 404, 409]) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(ok(await retryDelivery(runtime, request.principal, request.params.id, request.params.deliveryId))),
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        operationId: 'platform.webhooks.test',
        tags,
        summary: 'Send a webhook.test event now and answer with the attempt (status code, latency, answer)',
        description:
          'Sent at once, even to a disabled webhook, outside its order; not retried, and not counted toward the ' +
          'three days of failures that disable a webhook.',
        params: WebhookParamsSchema,
        response: { 201: PlatformEnvelopeSchema(DeliverySchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await sendTestEvent(runtime, request.principal, request.params.id))),
  );
}
