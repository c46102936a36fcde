import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ACTOR_TYPES } from '../../shared/event-types.js';
import { TICKET_ACTIVITY_FIELDS } from './ticket-activity.table.js';

const Value = Type.Unknown({
  description:
    'JSON: null, a text, a boolean, an object with the id and the name (`{id, name}`; a team adds identifier and ' +
    'ticketIdentifier, an assignee email), a list of tags `[{id, name}]`, or for custom fields `{fieldId, name, value}`',
});

export const TicketActivitySchema = Type.Object(
  {
    id: UlidSchema,
    ticketId: UlidSchema,
    field: StringEnum(TICKET_ACTIVITY_FIELDS, { description: 'What changed; `created`, `merged` and `deleted` are events' }),
    oldValue: Value,
    newValue: Value,
    actor: Type.Object(
      {
        type: StringEnum(ACTOR_TYPES),
        id: Nullable(Type.String({ description: 'User, customer contact or routing decision id; null for the system' })),
        name: Nullable(Type.String({ description: "A person's current name; for routing, the rule that matched" })),
      },
      { additionalProperties: false },
    ),
    createdAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const ListTicketActivitiesQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);
export type ListTicketActivitiesQuery = Static<typeof ListTicketActivitiesQuerySchema>;
