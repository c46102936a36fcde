import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformListEnvelopeSchema, platformErrorResponses, platformListEnvelope } from '../platform.envelope.js';
import { TicketIdParamsSchema } from '../tickets/ticket.schemas.js';
import { ListTicketSlaEventsQuerySchema, TicketSlaEventSchema } from './ticket-sla.schemas.js';
import { listTicketSlaEvents } from './ticket-sla-events.service.js';

/** A ticket's auditable SLA clock. Read only: the events are written by the changes themselves. */
export function ticketSlaRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tickets/:id/sla-events',
      {
        schema: {
          operationId: 'platform.tickets.slaEvents',
          tags: ['tickets'],
          summary: "A ticket's SLA clock, oldest first: every start, pause, resume, met, breach and policy change",
          description:
            'Each with its reason and who caused it (a user, the customer, the system, routing); `limit` at a time ' +
            '(50 by default), `cursor` takes the `nextCursor` of the page before.',
          params: TicketIdParamsSchema,
          querystring: ListTicketSlaEventsQuerySchema,
          response: {
            200: PlatformListEnvelopeSchema(Type.Array(TicketSlaEventSchema)),
            ...platformErrorResponses([400, 404]),
          },
        },
      },
      async (request) => {
        const page = await listTicketSlaEvents(deps.db, request.principal, request.params.id, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );
  };
}
