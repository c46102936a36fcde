import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema } from '../../http/shared-schemas.js';
import { ACTOR_TYPES, EVENT_TYPES } from '../../shared/event-types.js';

export const EventIdSchema = Type.String({
  pattern: '^[0-9]{16}$',
  description:
    "The event's place in the organization's log: 16 digits, increasing in commit order (sorts as text and as a number)",
});

export const EventSchema = Type.Object(
  {
    id: EventIdSchema,
    type: StringEnum(EVENT_TYPES),
    organizationId: Type.String(),
    occurredAt: TimestampSchema,
    actor: Type.Object(
      {
        type: StringEnum(ACTOR_TYPES),
        id: Nullable(Type.String({ description: 'User, customer contact or routing decision id; null for the system' })),
        name: Nullable(Type.String({ description: 'The name when the event happened; for routing, the rule that matched' })),
      },
      { additionalProperties: false },
    ),
    data: Type.Unknown({ description: 'The resource as the API answered it after the change (a ticket, a comment …)' }),
    changes: Nullable(
      Type.Array(
        Type.Object(
          { field: Type.String(), oldValue: Type.Unknown(), newValue: Type.Unknown() },
          { additionalProperties: false },
        ),
        {
          description:
            'ticket.updated: every changed field, with the values of the ticket timeline; ticket.status_changed and ' +
            'ticket.assigned: that field; otherwise null',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const EventTypesQuerySchema = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 50,
  description: `Only these types; repeat for several (?type=ticket.created&type=comment.created). One of: ${EVENT_TYPES.join(', ')}`,
});

/** A position in the log as a client sends it back: an event id (leading zeros optional). */
const LAST_EVENT_ID_PATTERN = '^[0-9]{1,16}$';

export const ListEventsQuerySchema = Type.Object(
  {
    type: Type.Optional(EventTypesQuerySchema),
    occurredAfter: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only events that occurred after this instant' }),
    ),
    occurredBefore: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only events that occurred before this instant' }),
    ),
    order: Type.Optional(
      StringEnum(['desc', 'asc'] as const, { default: 'desc', description: 'desc: newest first (default); asc: oldest first' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);
export type ListEventsQuery = Static<typeof ListEventsQuerySchema>;

export const StreamEventsQuerySchema = Type.Object(
  {
    type: Type.Optional(EventTypesQuerySchema),
    lastEventId: Type.Optional(
      Type.String({
        pattern: LAST_EVENT_ID_PATTERN,
        description:
          'Resume after this event id, for clients that cannot send the Last-Event-ID header (the header wins when both are sent)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const StreamEventsHeadersSchema = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      pattern: LAST_EVENT_ID_PATTERN,
      description: 'Resume after this event id: what an EventSource sends by itself when it reconnects',
    }),
  ),
});
