import { Type } from '@sinclair/typebox';
import { TicketSchema } from '../tickets/ticket.schemas.js';

export const MergeTicketSchema = Type.Object(
  {
    targetTicketId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The ticket to merge into: its id or ticketIdentifier, in the same organization',
    }),
  },
  { additionalProperties: false },
);

export const MergeResultSchema = Type.Object(
  {
    source: TicketSchema,
    target: TicketSchema,
    movedComments: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
