import { Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { EmailDeliverySchema } from '../email-outbox/email-outbox.schemas.js';
import { ListPageNumberSchema } from '../platform.pagination.js';

/** One message of a ticket's email thread, received or sent, with the headers that thread it. */
export const TicketEmailSchema = Type.Object(
  {
    id: UlidSchema,
    direction: StringEnum(['inbound', 'outbound'] as const),
    mailboxId: Nullable(UlidSchema),
    messageId: Type.String({ description: 'The Message-ID, without angle brackets' }),
    inReplyTo: Nullable(Type.String()),
    references: Type.Array(Type.String(), { description: 'The References ids, oldest first' }),
    from: Type.Object(
      { address: Type.String({ description: 'Empty when the message named no usable sender' }), name: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    to: Type.Array(Type.String()),
    cc: Type.Array(Type.String()),
    subject: Type.String(),
    headers: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }), {
      description: 'The header lines in order, as received or sent',
    }),
    size: Type.Integer({ description: 'Bytes of the original message' }),
    hasRaw: Type.Boolean({ description: 'Whether the original is kept, for GET …/emails/{emailId}/raw' }),
    disposition: Type.String({
      description:
        'What became of it. Received: ticket_created, reply, or why it was set aside (from_agent, auto_reply, bounce, ' +
        'loop, no_sender, rate_limited, too_large, unreadable). Sent: as the sender records it',
    }),
    commentId: Nullable(UlidSchema),
    delivery: Nullable(EmailDeliverySchema),
    createdAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const TicketEmailsParamsSchema = Type.Object(
  { id: Type.String({ maxLength: 100, description: 'The ticket id, or its ticketIdentifier in any case (BILL-1)' }) },
  { additionalProperties: false },
);

export const TicketEmailParamsSchema = Type.Object(
  { id: TicketEmailsParamsSchema.properties.id, emailId: UlidSchema },
  { additionalProperties: false },
);

export const ListTicketEmailsQuerySchema = Type.Object(
  {
    page: Type.Optional(ListPageNumberSchema()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);

export const RawEmailSchema = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: 'The message as received (.eml)',
});
