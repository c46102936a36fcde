import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformListEnvelopeSchema, platformErrorResponses, platformListEnvelope } from '../platform.envelope.js';
import { SearchTicketsQuerySchema, TicketSearchHitSchema } from './ticket-search.schemas.js';
import { searchTickets } from './ticket-search.service.js';

/**
 * `GET /tickets/search`. A static segment, so find-my-way prefers it to `GET /tickets/:id`
 * whatever the order of registration: "search" is never read as a ticket id.
 */
export function ticketSearchRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tickets/search',
      {
        schema: {
          operationId: 'platform.tickets.search',
          tags: ['tickets'],
          summary:
            'Full-text search of the tickets the caller may see (title, description, comments), best match first, ' +
            'each with highlighted passages; takes the filters of the ticket list',
          querystring: SearchTicketsQuerySchema,
          response: {
            200: PlatformListEnvelopeSchema(Type.Array(TicketSearchHitSchema)),
            ...platformErrorResponses([400, 404]),
          },
        },
      },
      async (request) => {
        const page = await searchTickets(deps.db, request.principal, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor, 'Search results');
      },
    );
  };
}
