import { Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ListPageNumberSchema } from '../platform.pagination.js';

export const OutboxStatusSchema = StringEnum(['pending', 'sending', 'sent', 'failed', 'undeliverable'] as const, {
  description:
    'pending: waiting for its first attempt; sending: claimed by a worker; failed: will be retried at nextAttemptAt; ' +
    'undeliverable: given up (permanent rejection, last attempt, or no SMTP_URL), until an admin retries it',
});

/** A queued email as admins see it; the bodies are left out (see the ticket's comments for the content). */
export const OutboxMessageSchema = Type.Object(
  {
    id: UlidSchema,
    to: Type.String(),
    subject: Type.String(),
    status: OutboxStatusSchema,
    attempts: Type.Integer({ description: 'Delivery attempts started so far' }),
    lastError: Nullable(Type.String()),
    nextAttemptAt: Nullable(TimestampSchema),
    sentAt: Nullable(TimestampSchema),
    messageId: Nullable(Type.String({ description: 'Message-ID header of the delivered email' })),
    createdAt: TimestampSchema,
    dedupeKey: Type.String({ description: 'What the email is about, e.g. comment:<comment id>; one email per key' }),
  },
  { additionalProperties: false },
);

export const ListOutboxQuerySchema = Type.Object(
  {
    status: Type.Optional(OutboxStatusSchema),
    page: Type.Optional(ListPageNumberSchema()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);

export const OutboxParamsSchema = Type.Object({ id: UlidSchema }, { additionalProperties: false });

/** What the author of a comment sees of the email it queued. */
export const EmailDeliverySchema = Type.Object(
  {
    outboxId: UlidSchema,
    status: OutboxStatusSchema,
    attempts: Type.Integer({ description: 'Delivery attempts started so far (since the last retry)' }),
    lastError: Nullable(Type.String()),
    sentAt: Nullable(TimestampSchema),
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);
