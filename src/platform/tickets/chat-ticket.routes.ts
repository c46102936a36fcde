import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { TimestampSchema } from '../../http/shared-schemas.js';
import { AppError } from '../../lib/errors.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { getChatTicketVisitor } from './chat-ticket-visitor.service.js';
import { TicketIdParamsSchema } from './ticket.schemas.js';

const ChatVisitorSchema = Type.Object(
  {
    ticketId: Type.String(),
    online: Type.Boolean({ description: 'A messenger panel of the visitor has the conversation open' }),
    lastSeenAt: TimestampSchema,
    typing: Type.Boolean({ description: 'The visitor is typing (reported in the last few seconds)' }),
  },
  { additionalProperties: false, title: 'ChatVisitor' },
);

/** A chat ticket's visitor (the messenger's), as the console's ticket page shows them. */
export function chatTicketRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tickets/:id/chat-visitor',
      {
        schema: {
          operationId: 'platform.tickets.chatVisitor',
          tags: ['tickets'],
          summary: "A chat ticket's visitor: whether their messenger panel is open and they are typing",
          description:
            'For tickets from the messenger (`source: chat`); 404 for other tickets. Changes arrive live on the event ' +
            'stream as `chat.visitor_presence` and `chat.visitor_typing`.',
          params: TicketIdParamsSchema,
          response: { 200: PlatformEnvelopeSchema(ChatVisitorSchema), ...platformErrorResponses([404]) },
        },
      },
      async (request) => {
        const visitor = await getChatTicketVisitor(deps, request.principal, request.params.id);
        if (!visitor) {
          throw AppError.notFound('This ticket has no messenger visitor');
        }
        return platformEnvelope(deps.clock, visitor);
      },
    );
  };
}
