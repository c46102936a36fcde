import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../platform.envelope.js';
import { ListOutboxQuerySchema, OutboxMessageSchema, OutboxParamsSchema } from './email-outbox.schemas.js';
import { listOutbox, retryOutboxMessage } from './email-outbox.service.js';

export function outboxRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.get(
      '/outbox',
      {
        schema: {
          operationId: 'platform.outbox.list',
          tags: ['outbox'],
          summary: 'Email queued by the organization (comment notifications), newest first; organization admins only',
          description:
            'Ordered by creation time, then id, both descending. Page by `page` (0-based) or by `cursor` (the ' +
            '`nextCursor` of the page before), not both.',
          querystring: ListOutboxQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(OutboxMessageSchema)), ...platformErrorResponses([400, 403]) },
        },
      },
      async (request) => {
        const page = await listOutbox(deps.db, request.principal, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.post(
      '/outbox/:id/retry',
      {
        schema: {
          operationId: 'platform.outbox.retry',
          tags: ['outbox'],
          summary: 'Queue a failed or undeliverable email again, due at once with its attempts reset; organization admins only',
          description: 'A message in any other status is a 409; one of another organization is a 404.',
          params: OutboxParamsSchema,
          response: { 200: PlatformEnvelopeSchema(OutboxMessageSchema), ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) => ok(await retryOutboxMessage(deps, request.principal, request.params.id)),
    );
  };
}
