import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { TicketIdParamsSchema } from '../tickets/ticket.schemas.js';
import { MergeResultSchema, MergeTicketSchema } from './ticket-merge.schemas.js';
import { mergeTicket } from './ticket-merge.service.js';

export function ticketMergeRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/tickets/:id/merge',
      {
        schema: {
          operationId: 'platform.tickets.merge',
          tags: ['tickets'],
          summary: 'Merge a ticket into another of the organization',
          description:
            'In one transaction: every comment moves to the target; the ticket is closed with `metadata.mergedInto` ' +
            '(`{ticketId, ticketIdentifier}`) linking the target; an internal note on each ticket and a `merged` entry in ' +
            'both timelines say what happened. Into itself: 400; already merged, or a target merged or closed: 409; ' +
            'an unknown ticket or one of another organization: 404.',
          params: TicketIdParamsSchema,
          body: MergeTicketSchema,
          response: { 200: PlatformEnvelopeSchema(MergeResultSchema), ...platformErrorResponses([400, 404, 409]) },
        },
      },
      async (request) =>
        platformEnvelope(deps.clock, await mergeTicket(deps, request.principal, request.params.id, request.body.targetTicketId)),
    );
  };
}
