import { Type } from '@sinclair/typebox';
import { Nullable, UlidSchema } from '../../http/shared-schemas.js';
import { TagRefsSchema } from '../ticket-tags/ticket-tag.schemas.js';
import { TicketSchema } from '../tickets/ticket.schemas.js';

export const MAX_BULK_TICKETS = 100;

const Name = Type.String({ minLength: 1, maxLength: 100 });

/** One change for every ticket; exactly one kind (the service says which ones were sent when not). */
export const BulkChangeSchema = Type.Object(
  {
    statusId: Type.Optional(UlidSchema),
    statusName: Type.Optional(Name),
    priorityId: Type.Optional(UlidSchema),
    priorityName: Type.Optional(Name),
    assignedAgentId: Type.Optional(Nullable(UlidSchema)),
    assignedAgentEmail: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320 }))),
    teamId: Type.Optional(UlidSchema),
    addTagIds: Type.Optional(TagRefsSchema),
    removeTagIds: Type.Optional(TagRefsSchema),
  },
  {
    additionalProperties: false,
    description:
      "Exactly one change: a status (statusId or statusName, resolved in each ticket's team), a priority, an assignee " +
      '(null unassigns), a team (the ticket moves like a routed one: renumbered, options and tags matched by name), or tags ' +
      "to add or remove (ids, or names resolved in each ticket's team).",
  },
);

export const BulkUpdateSchema = Type.Object(
  {
    ticketIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: MAX_BULK_TICKETS,
      description: 'Ticket ids or ticketIdentifiers (BILL-1), at most 100; one named twice counts once',
    }),
    change: BulkChangeSchema,
  },
  { additionalProperties: false },
);

export const BulkResultSchema = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          ref: Type.String({ description: 'The entry of ticketIds' }),
          id: UlidSchema,
          changed: Type.Boolean({ description: 'False when the ticket already was as asked' }),
          ticket: TicketSchema,
        },
        { additionalProperties: false },
      ),
    ),
    changed: Type.Integer({ minimum: 0, description: 'How many tickets changed' }),
  },
  { additionalProperties: false },
);
