import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformListEnvelopeSchema, platformErrorResponses, platformListEnvelope } from '../platform.envelope.js';
import {
  ListTicketEmailsQuerySchema,
  RawEmailSchema,
  TicketEmailParamsSchema,
  TicketEmailSchema,
  TicketEmailsParamsSchema,
} from './ticket-email.schemas.js';
import { listEmailsOfTicket, readRawEmail } from './ticket-email.service.js';

/** A ticket's email thread: every message received for it and sent from it, and the originals. */
export function ticketEmailRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tickets/:id/emails',
      {
        schema: {
          operationId: 'platform.tickets.listEmails',
          tags: ['tickets'],
          summary: "A ticket's emails, received and sent, oldest first, with their headers and (sent ones) delivery state",
          description:
            'For whoever may see the ticket. Ordered by time, then id. Page by `page` (0-based) or by `cursor` ' +
            '(the `nextCursor` of the page before), not both.',
          params: TicketEmailsParamsSchema,
          querystring: ListTicketEmailsQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(TicketEmailSchema)), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => {
        const page = await listEmailsOfTicket(deps.db, request.principal, request.params.id, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.get(
      '/tickets/:id/emails/:emailId/raw',
      {
        schema: {
          operationId: 'platform.tickets.rawEmail',
          tags: ['tickets'],
          summary: 'The original of an email of the ticket, as received (.eml, message/rfc822)',
          params: TicketEmailParamsSchema,
          response: {
            200: { description: 'The message', content: { 'message/rfc822': { schema: RawEmailSchema } } },
            ...platformErrorResponses([400, 404]),
          },
        },
      },
      async (request, reply) => {
        const raw = await readRawEmail(deps.db, request.principal, request.params.id, request.params.emailId);
        return reply
          .header('content-type', 'message/rfc822')
          .header('content-disposition', `attachment; filename="${request.params.emailId}.eml"`)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(raw);
      },
    );
  };
}
