import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformListEnvelopeSchema, platformErrorResponses, platformListEnvelope } from '../platform.envelope.js';
import { TicketIdParamsSchema } from '../tickets/ticket.schemas.js';
import { ListTicketActivitiesQuerySchema, TicketActivitySchema } from './ticket-activity.schemas.js';
import { listTicketActivities } from './ticket-activity.service.js';

/** A ticket's timeline. Read only: entries are written by the changes themselves and never edited. */
export function ticketActivityRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tickets/:id/activities',
      {
        schema: {
          operationId: 'platform.tickets.activities',
          tags: ['tickets'],
          summary: "A ticket's timeline, newest first: every change, who made it, the old and the new value",
          description:
            'One entry per changed field, in the order the changes were made; `limit` at a time (50 by default), ' +
            '`cursor` takes the `nextCursor` of the page before. Entries cannot be edited or deleted.',
          params: TicketIdParamsSchema,
          querystring: ListTicketActivitiesQuerySchema,
          response: {
            200: PlatformListEnvelopeSchema(Type.Array(TicketActivitySchema)),
            ...platformErrorResponses([400, 404]),
          },
        },
      },
      async (request) => {
        const page = await listTicketActivities(deps.db, request.principal, request.params.id, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );
  };
}
