import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { TicketIdParamsSchema, TicketSchema } from '../tickets/ticket.schemas.js';
import { TicketTagsBodySchema, TicketTagsQuerySchema } from './ticket-tag.schemas.js';
import { changeTicketTags } from './ticket-tag.service.js';

const tags = ['tickets'];

/** Adding tags to a ticket and taking them off; `PATCH /tickets/{id}` with `tagIds` replaces the whole set. */
export function ticketTagRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.post(
      '/tickets/:id/tags',
      {
        schema: {
          operationId: 'platform.tickets.tags.add',
          tags,
          summary: 'Add tags to a ticket',
          description:
            "Each entry a tag id or a tag name (ignoring case) of the ticket's team, of type ticket; tags the ticket has " +
            'already stay. The timeline records the change. Answers the ticket.',
          params: TicketIdParamsSchema,
          body: TicketTagsBodySchema,
          response: { 200: PlatformEnvelopeSchema(TicketSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await changeTicketTags(deps, request.principal, request.params.id, { add: request.body.tagIds })),
    );

    app.delete(
      '/tickets/:id/tags',
      {
        schema: {
          operationId: 'platform.tickets.tags.remove',
          tags,
          summary: 'Take tags off a ticket',
          description:
            'The tags go in the query, repeated: `?tagIds=A&tagIds=B` (ids or names), since many clients and proxies drop ' +
            'the body of a DELETE. Tags the ticket does not have are no change. Answers the ticket.',
          params: TicketIdParamsSchema,
          querystring: TicketTagsQuerySchema,
          response: { 200: PlatformEnvelopeSchema(TicketSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await changeTicketTags(deps, request.principal, request.params.id, { remove: request.query.tagIds })),
    );
  };
}
