import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ACTOR_TYPES } from '../../shared/event-types.js';
import { SLA_METRICS } from '../../shared/sla.js';

const KINDS = ['start', 'pause', 'resume', 'met', 'breach', 'policy_change', 'recalculated', 'warning'] as const;

export const TicketSlaEventSchema = Type.Object(
  {
    id: UlidSchema,
    kind: Type.Union(KINDS.map((kind) => Type.Literal(kind))),
    metric: Nullable(Type.Union(SLA_METRICS.map((metric) => Type.Literal(metric)))),
    policyId: Nullable(UlidSchema),
    reason: Type.String({ description: 'Why: `status On hold`, `ticket closed`, `public reply`, `priority High`…' }),
    dueAt: Nullable(TimestampSchema),
    actorType: Type.Union(ACTOR_TYPES.map((type) => Type.Literal(type))),
    actorId: Nullable(Type.String()),
    at: TimestampSchema,
  },
  { additionalProperties: false },
);

export const ListTicketSlaEventsQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);
export type ListTicketSlaEventsQuery = Static<typeof ListTicketSlaEventsQuerySchema>;
