import { type Static, Type } from '@sinclair/typebox';
import { Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { SLA_METRICS } from '../../shared/sla.js';
import { TagRefsSchema, TicketTagSchema } from '../ticket-tags/ticket-tag.schemas.js';
import { ticketListQuerySchema } from './ticket-filters.js';

const Email = Type.String({ format: 'email', maxLength: 320 });
const Metadata = Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form JSON object' });
const CustomFieldValue = Type.Object(
  { fieldId: Type.String({ minLength: 1 }), value: Type.Unknown() },
  { additionalProperties: false },
);

export const TicketOptionSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    displayName: Type.String(),
    description: Nullable(Type.String()),
    color: Nullable(Type.String()),
    isDefault: Type.Boolean(),
    isClosed: Type.Boolean(),
    pausesSla: Type.Boolean({ description: 'Statuses only: SLA clocks stop while a ticket is in this status' }),
    teamId: UlidSchema,
    organizationId: UlidSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const UpdateTicketStatusSchema = Type.Object(
  {
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
    pausesSla: Type.Optional(Type.Boolean({ description: 'Whether SLA clocks stop while a ticket is in this status' })),
  },
  { additionalProperties: false },
);
export type UpdateTicketStatus = Static<typeof UpdateTicketStatusSchema>;

export const TicketStatusParamsSchema = Type.Object({ id: UlidSchema });

const TicketSlaSchema = Nullable(
  Type.Object(
    {
      policyId: UlidSchema,
      targets: Type.Array(
        Type.Object(
          {
            metric: Type.Union(SLA_METRICS.map((metric) => Type.Literal(metric))),
            dueAt: Nullable(TimestampSchema),
            status: Type.Union(['active', 'paused', 'met', 'breached'].map((status) => Type.Literal(status))),
            breachedAt: Nullable(TimestampSchema),
            metAt: Nullable(TimestampSchema),
          },
          { additionalProperties: false },
        ),
      ),
    },
    {
      additionalProperties: false,
      description:
        'The SLA policy that applies (the first matching, by position) and its targets that have started; ' +
        '`dueAt` is null while paused. Null when no policy has applied.',
    },
  ),
);

export const TicketSchema = Type.Object(
  {
    id: UlidSchema,
    ticketId: Type.Integer({ description: 'Number of the ticket within its team' }),
    ticketIdentifier: Type.String({ description: '<TEAM IDENTIFIER>-<number>, e.g. WED-5' }),
    title: Type.String(),
    description: Nullable(Type.String()),
    source: Nullable(Type.String()),
    accountId: Nullable(Type.String()),
    account: Nullable(Type.String({ description: 'Name of the account' })),
    statusId: UlidSchema,
    status: Type.String(),
    isClosed: Type.Boolean(),
    priorityId: UlidSchema,
    priority: Type.String(),
    typeId: Nullable(UlidSchema),
    type: Nullable(Type.String()),
    teamId: UlidSchema,
    teamName: Type.String(),
    teamIdentifier: Type.String(),
    isPrivate: Type.Boolean(),
    assignedAgent: Nullable(Type.String()),
    assignedAgentId: Nullable(UlidSchema),
    assignedAgentEmail: Nullable(Type.String()),
    assignedAgentAvatar: Nullable(Type.String()),
    requestorEmail: Type.String(),
    customerContactId: Nullable(UlidSchema),
    customerContactFirstName: Nullable(Type.String()),
    customerContactLastName: Nullable(Type.String()),
    customerContactEmail: Nullable(Type.String()),
    submitterEmail: Nullable(Type.String()),
    metadata: Nullable(Metadata),
    customFieldValues: Type.Array(CustomFieldValue),
    tags: Type.Array(TicketTagSchema, { description: "The ticket's tags (team tags of type ticket), by name" }),
    dueDate: Nullable(TimestampSchema),
    closedAt: Nullable(TimestampSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    deletedAt: Nullable(TimestampSchema),
    sla: TicketSlaSchema,
  },
  { additionalProperties: false },
);

const optionalFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
  accountId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  assignedAgentId: Type.Optional(Nullable(UlidSchema)),
  assignedAgentEmail: Type.Optional(Nullable(Email)),
  statusId: Type.Optional(UlidSchema),
  statusName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  priorityId: Type.Optional(UlidSchema),
  priorityName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  typeId: Type.Optional(Nullable(UlidSchema)),
  isPrivate: Type.Optional(Type.Boolean()),
  source: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  metadata: Type.Optional(Nullable(Metadata)),
  dueDate: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  customFieldValues: Type.Optional(Type.Array(CustomFieldValue, { maxItems: 500 })),
  /** On update, the ticket's whole set of tags ([] clears them). */
  tagIds: Type.Optional(TagRefsSchema),
};

export const CreateTicketSchema = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 500 }),
    requestorEmail: Email,
    teamId: UlidSchema,
    submitterEmail: Type.Optional(Email),
    performRouting: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          "Run the team's routing rules and its agent assignment (default true); an explicit assignedAgentId or " +
          'assignedAgentEmail still wins over the routed agent',
      }),
    ),
    ...optionalFields,
  },
  { additionalProperties: false },
);

export const UpdateTicketSchema = Type.Object(
  { title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), ...optionalFields },
  { additionalProperties: false },
);

export const TicketIdParamsSchema = Type.Object({
  id: Type.String({ maxLength: 100, description: 'The ticket id, or its ticketIdentifier in any case (BILL-1)' }),
});

/** The filters, sort and pages of `GET /v1/tickets`: see `ticket-filters.ts`, shared with search and views. */
export const ListTicketsQuerySchema = ticketListQuerySchema();

export const TeamQuerySchema = Type.Object({ teamId: UlidSchema }, { additionalProperties: false });
