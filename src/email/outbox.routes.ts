import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform/platform.envelope.js';
import { ListOutboxQuerySchema, OutboxMessageSchema } from './outbox.schemas.js';
import { listOutbox } from './outbox.service.js';

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
          querystring: ListOutboxQuerySchema,
          response: { 200: PlatformEnvelopeSchema(Type.Array(OutboxMessageSchema)), ...platformErrorResponses([400, 403]) },
        },
      },
      async (request) => ok(await listOutbox(deps.db, request.principal, request.query)),
    );
  };
}
