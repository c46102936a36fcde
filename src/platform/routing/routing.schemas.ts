import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import { TagRefsSchema } from '../ticket-tags/ticket-tag.schemas.js';
import { TicketSchema } from '../tickets/ticket.schemas.js';
import { UserStatusSchema } from '../users/user.schemas.js';

const closed = { additionalProperties: false } as const;

export const RoutingOutcomeSchema = StringEnum(['assigned', 'explicit_agent', 'manual', 'team_closed', 'no_eligible_agent'], {
  description:
    'assigned: an agent was chosen by round robin; explicit_agent: the request named the agent; manual: the team ' +
    'assigns by hand; team_closed: outside team hours or on a holiday; no_eligible_agent: nobody in the team or its ' +
    'fallback sub-team qualified. In the last three the ticket waits unassigned.',
});

const MemberCheckSchema = Type.Object(
  {
    check: StringEnum(['strategy', 'teamHours', 'availability', 'capacity', 'businessHours']),
    passed: Type.Boolean(),
    detail: Type.String(),
  },
  closed,
);

const MemberVerdictSchema = Type.Object(
  {
    userId: UlidSchema,
    name: Type.String(),
    email: Type.String(),
    status: UserStatusSchema,
    capacity: Nullable(Type.Integer()),
    openTickets: Type.Integer({ description: 'Open tickets assigned to the member, in every team' }),
    lastAssignedAt: Nullable(TimestampSchema),
    eligible: Type.Boolean(),
    reason: Type.String({ description: 'Why the member is or is not eligible, in one sentence' }),
    checks: Type.Array(MemberCheckSchema, { description: 'One entry per routing switch that applies' }),
  },
  closed,
);

const TeamVerdictSchema = Type.Object(
  {
    teamId: UlidSchema,
    strategy: StringEnum(['manual', 'round_robin']),
    teamOpen: Nullable(Type.Boolean({ description: 'null when routingRespectsTimezone is off' })),
    outcome: StringEnum(['assigned', 'manual', 'team_closed', 'no_eligible_agent']),
    agentId: Nullable(UlidSchema),
    members: Type.Array(MemberVerdictSchema),
  },
  closed,
);

const HopSchema = Type.Object(
  {
    fromTeamId: UlidSchema,
    ruleId: UlidSchema,
    ruleName: Type.String(),
    evaluationOrder: Type.Integer(),
    resultTeamId: UlidSchema,
    fallbackTeamId: Nullable(UlidSchema),
    toTeamId: Nullable(UlidSchema),
    via: Nullable(StringEnum(['resultTeam', 'fallbackTeam'])),
    note: Type.String(),
  },
  closed,
);

const MatchedRuleSchema = Type.Object(
  { id: UlidSchema, name: Type.String(), teamId: UlidSchema, evaluationOrder: Type.Integer() },
  closed,
);

const explanationProperties = {
  at: Type.String({ format: 'date-time', description: 'The instant hours were read at' }),
  startTeamId: UlidSchema,
  matchedRule: Nullable(MatchedRuleSchema),
  hops: Type.Array(HopSchema, { description: 'Each rule that moved (or tried to move) the ticket, in order; at most 5' }),
  stop: StringEnum(['no_match', 'max_hops', 'loop', 'unavailable', 'not_evaluated'], {
    description:
      'Why team choice stopped: no rule of the last team matched; 5 hops made; the next team was already visited; ' +
      "the rule's result and fallback teams are archived or gone; rules not evaluated (a waiting ticket being assigned)",
  }),
  teamId: Type.String({ pattern: ULID_PATTERN, description: 'The chosen team' }),
  teamName: Type.String(),
  outcome: RoutingOutcomeSchema,
  agentId: Nullable(UlidSchema),
  agentName: Nullable(Type.String()),
  agentTeamId: Nullable(UlidSchema),
  team: Nullable(TeamVerdictSchema),
  fallbackSubTeam: Nullable(TeamVerdictSchema),
};

export const RoutingExplanationSchema = Type.Object(explanationProperties, closed);

const ConditionValueSchema = Type.Union([Type.String(), Type.Number()]);

const ConditionOutcomeSchema = Type.Object(
  {
    group: StringEnum(['and', 'or'], { description: 'The list the condition is in: andRules or orRules' }),
    index: Type.Integer({ description: "The condition's place in its list" }),
    field: Nullable(Type.String()),
    operator: Nullable(Type.String()),
    value: Nullable(Type.Union([ConditionValueSchema, Type.Array(ConditionValueSchema)])),
    matched: Type.Boolean(),
    problem: Nullable(Type.String({ description: 'Why a stored condition no longer reads; such a rule never matches' })),
  },
  closed,
);

const RuleEvaluationSchema = Type.Object(
  {
    ruleId: UlidSchema,
    ruleName: Type.String(),
    evaluationOrder: Type.Integer(),
    reached: Type.Boolean({ description: 'False for the rules after the first match: routing stops there' }),
    matched: Type.Boolean({ description: "Whether the rule's conditions hold for the ticket, also for a rule not reached" }),
    conditions: Type.Array(ConditionOutcomeSchema, {
      description: 'The and conditions, then the or conditions, each with its outcome',
    }),
  },
  closed,
);

/** The explanation, plus the starting team's rules evaluated one by one. */
export const RoutingSimulationSchema = Type.Object(
  {
    ...explanationProperties,
    ruleEvaluations: Type.Array(RuleEvaluationSchema, {
      description: "The starting team's rules in evaluation order, each with the outcome of each of its conditions",
    }),
  },
  closed,
);

export const RoutingDecisionSchema = Type.Object(
  {
    id: UlidSchema,
    ticketId: UlidSchema,
    trigger: StringEnum(['create', 'reroute', 'member_available', 'ticket_closed', 'worker']),
    decidedAt: TimestampSchema,
    decidedById: Nullable(UlidSchema),
    fromTeamId: UlidSchema,
    previousTicketIdentifier: Nullable(Type.String({ description: 'Set when the decision moved the ticket to another team' })),
    ...explanationProperties,
  },
  closed,
);

export const RerouteResultSchema = Type.Object({ ticket: TicketSchema, decision: RoutingDecisionSchema }, closed);

export const ListRoutingHistoryQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
    cursor: Type.Optional(CursorSchema),
  },
  closed,
);
export type ListRoutingHistoryQuery = Static<typeof ListRoutingHistoryQuerySchema>;

const Email = Type.String({ format: 'email', maxLength: 320 });

/** A ticket as routing sees it; status, priority and type resolve like on creation. */
export const SimulateRoutingSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 500 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
    requestorEmail: Type.Optional(Email),
    accountId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    source: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    statusId: Type.Optional(UlidSchema),
    statusName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    priorityId: Type.Optional(UlidSchema),
    priorityName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    typeId: Type.Optional(Nullable(UlidSchema)),
    customFieldValues: Type.Optional(
      Type.Array(Type.Object({ fieldId: Type.String({ minLength: 1 }), value: Type.Unknown() }, closed), { maxItems: 500 }),
    ),
    tagIds: Type.Optional(TagRefsSchema),
    at: Type.Optional(Type.String({ format: 'date-time', description: 'Route as of this instant; default now' })),
  },
  closed,
);

export const RoutingTeamParamsSchema = Type.Object({ teamId: UlidSchema });

export type SimulateRouting = Static<typeof SimulateRoutingSchema>;
