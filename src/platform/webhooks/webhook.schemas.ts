import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { EVENT_TYPES } from '../../shared/event-types.js';
import { DELIVERY_STATUSES, DISABLED_REASONS } from './webhook.table.js';

const UrlSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Where deliveries are POSTed: https, or plain http to a host in OUTBOUND_ALLOWED_HOSTS; no private, loopback or ' +
    'link-local address unless OUTBOUND_ALLOWED_HOSTS names it',
});

const EventTypesSchema = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 50,
  description: `The event types delivered. One or more of: ${EVENT_TYPES.join(', ')}`,
});

const DescriptionSchema = Nullable(Type.String({ maxLength: 500 }));

export const WebhookSchema = Type.Object(
  {
    id: UlidSchema,
    url: Type.String(),
    eventTypes: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    enabled: Type.Boolean(),
    ownerId: {
      ...UlidSchema,
      description:
        'Its creator: events are delivered as this user may see them (private tickets, private notes), and this user is ' +
        'emailed when the webhook is disabled for failing',
    },
    disabledReason: Nullable(
      StringEnum(DISABLED_REASONS, {
        description: 'manual: turned off with enabled=false; failing: every delivery failed for 3 days',
      }),
    ),
    disabledAt: Nullable(TimestampSchema),
    failingSince: Nullable({ ...TimestampSchema, description: 'The first failed delivery since the last success' }),
    previousSecretExpiresAt: Nullable({
      ...TimestampSchema,
      description: 'After a rotation, until when deliveries are also signed with the previous secret',
    }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

/** The answer of a create or a rotation: the only time the secret is shown. */
export const WebhookWithSecretSchema = Type.Object(
  {
    ...WebhookSchema.properties,
    secret: Type.String({
      description: 'The signing secret (whsec_…), for a Standard Webhooks library; shown only in this answer',
    }),
  },
  { additionalProperties: false },
);

export const CreateWebhookSchema = Type.Object(
  {
    url: UrlSchema,
    eventTypes: EventTypesSchema,
    description: Type.Optional(DescriptionSchema),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);

export const UpdateWebhookSchema = Type.Object(
  {
    url: Type.Optional(UrlSchema),
    eventTypes: Type.Optional({ ...EventTypesSchema, description: 'Replaces the list; applies to events from now on' }),
    description: Type.Optional(DescriptionSchema),
    enabled: Type.Optional(
      Type.Boolean({
        description:
          'false pauses deliveries (events keep being collected while they are retained); true resumes them and clears ' +
          'the failure state',
      }),
    ),
  },
  { additionalProperties: false },
);

export const WebhookParamsSchema = Type.Object({ id: UlidSchema }, { additionalProperties: false });
export const DeliveryParamsSchema = Type.Object({ id: UlidSchema, deliveryId: UlidSchema }, { additionalProperties: false });

export const ListWebhooksQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);

const DeliveryStatusSchema = StringEnum(DELIVERY_STATUSES, {
  description:
    'pending: waiting for an attempt at nextAttemptAt (null while an earlier event of the endpoint is still being ' +
    'delivered); delivering: an attempt is under way; delivered: a 2xx came back; failed: every attempt failed ' +
    '(retry it by hand)',
});

export const DeliveryAttemptSchema = Type.Object(
  {
    id: UlidSchema,
    startedAt: TimestampSchema,
    statusCode: Nullable(Type.Integer({ description: 'Null when no answer came' })),
    latencyMs: Type.Integer({ description: 'From the request to the end of the answer' }),
    responseBody: Nullable(Type.String({ description: 'The start of the answer (4096 characters at most)' })),
    responseTruncated: Type.Boolean(),
    error: Nullable(Type.String({ description: 'Why the attempt failed; null on success' })),
  },
  { additionalProperties: false },
);

export const DeliverySchema = Type.Object(
  {
    id: {
      ...UlidSchema,
      description: 'The webhook-id header: the same on every attempt, for receivers to drop duplicates',
    },
    webhookId: UlidSchema,
    eventId: Nullable(Type.String({ description: 'The event (as in GET /v1/events); null for a test' })),
    eventType: Type.String(),
    status: DeliveryStatusSchema,
    attempts: Type.Array(DeliveryAttemptSchema, { description: 'Oldest first' }),
    nextAttemptAt: Nullable(TimestampSchema),
    deliveredAt: Nullable(TimestampSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const ListDeliveriesQuerySchema = Type.Object(
  {
    status: Type.Optional(DeliveryStatusSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);

export type CreateWebhook = Static<typeof CreateWebhookSchema>;
export type UpdateWebhook = Static<typeof UpdateWebhookSchema>;
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuerySchema>;
