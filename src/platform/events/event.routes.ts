import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformListEnvelopeSchema, platformErrorResponses, platformListEnvelope } from '../platform.envelope.js';
import { EventSchema, ListEventsQuerySchema } from './event.schemas.js';
import { listOrganizationEvents } from './event.service.js';

/** The event log. Read only: events are written by the changes themselves. */
export function eventRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/events',
      {
        schema: {
          operationId: 'platform.events.list',
          tags: ['events'],
          summary: "The organization's event log, newest first; organization admins only",
          description:
            'Every change writes an event in its own transaction: `{id, type, organizationId, occurredAt, actor, data}`, ' +
            '`data` being the resource as the API answered it. Ids increase in commit order. Filter by `type` (repeat ' +
            'it), `occurredAfter`, `occurredBefore`; `order=asc` for oldest first; `cursor` takes the `nextCursor` of ' +
            'the page before. Events are kept for EVENT_RETENTION_DAYS (30 by default).',
          querystring: ListEventsQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(EventSchema)), ...platformErrorResponses([400, 403]) },
        },
      },
      async (request) => {
        const page = await listOrganizationEvents(deps.db, request.principal, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );
  };
}
