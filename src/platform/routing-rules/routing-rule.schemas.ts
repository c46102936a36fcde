import { type Static, Type } from '@sinclair/typebox';
import { Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ULID_PATTERN } from '../../lib/ids.js';

/** PostgreSQL's `integer`, the column's type. */
export const MAX_EVALUATION_ORDER = 2_147_483_647;

const conditionList = (description: string, defaultValue?: string[]) =>
  Type.Array(
    Type.String({
      maxLength: 2000,
      description:
        'A JSON object written as a string: {"field", "operator", "value", "precedence"?}. Fields: title, description, ' +
        'priority, status, source, requestorEmail, accountId, type, customField.<fieldId>. Operators (any case): equals, ' +
        'not_equals, contains, not_contains, starts_with, in (array value), is_empty and is_not_empty (no value).',
    }),
    { maxItems: 50, description, ...(defaultValue && { default: defaultValue }) },
  );

const NameSchema = Type.String({ minLength: 1, maxLength: 255 });
const DescriptionSchema = Type.String({ maxLength: 1000 });
const ORDER_DESCRIPTION = "Position among the team's rules, ascending, unique per team; the first matching rule wins";
const evaluationOrder = (description = ORDER_DESCRIPTION) =>
  Type.Integer({ minimum: 0, maximum: MAX_EVALUATION_ORDER, description });
const teamReference = (description: string) => Type.String({ pattern: ULID_PATTERN, description });

const RESULT_TEAM = 'Active team of the organization that receives a matching ticket';
const FALLBACK_TEAM = 'Active team of the organization that takes the ticket when the result team is archived or gone';
const AND_RULES = 'Conditions that must all hold';
const OR_RULES = 'When not empty, at least one of these conditions must hold';

export const RoutingRuleSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    description: Nullable(Type.String()),
    teamId: UlidSchema,
    evaluationOrder: Type.Integer(),
    resultTeamId: UlidSchema,
    fallbackTeamId: Nullable(UlidSchema),
    andRules: Type.Array(Type.String()),
    orRules: Type.Array(Type.String()),
    createdBy: Type.String({ description: "The creator's name" }),
    createdById: UlidSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const CreateRoutingRuleSchema = Type.Object(
  {
    name: NameSchema,
    description: Type.Optional(Nullable(DescriptionSchema)),
    evaluationOrder: Type.Optional(
      evaluationOrder(`${ORDER_DESCRIPTION}. Default: one more than the team's highest, 0 for its first rule`),
    ),
    resultTeamId: teamReference(RESULT_TEAM),
    fallbackTeamId: Type.Optional(Nullable(teamReference(FALLBACK_TEAM))),
    andRules: Type.Optional(conditionList(AND_RULES, [])),
    orRules: Type.Optional(conditionList(OR_RULES, [])),
  },
  { additionalProperties: false },
);

/** Any subset of the creation fields; `description` and `fallbackTeamId` are cleared by `null`. */
export const UpdateRoutingRuleSchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    description: Type.Optional(Nullable(DescriptionSchema)),
    evaluationOrder: Type.Optional(evaluationOrder()),
    resultTeamId: Type.Optional(teamReference(RESULT_TEAM)),
    fallbackTeamId: Type.Optional(Nullable(teamReference(FALLBACK_TEAM))),
    andRules: Type.Optional(conditionList(AND_RULES)),
    orRules: Type.Optional(conditionList(OR_RULES)),
  },
  { additionalProperties: false },
);

/** The most rules one reorder names: far more than a team keeps, so the body stays bounded. */
export const MAX_REORDERED_RULES = 1000;

export const ReorderRoutingRulesSchema = Type.Object(
  {
    ruleIds: Type.Array(Type.String({ pattern: ULID_PATTERN, description: 'ULID (26 characters)' }), {
      maxItems: MAX_REORDERED_RULES,
      description:
        'Every rule of the team, each once, in its new evaluation order: the first gets evaluationOrder 0, the next 1, and so on',
    }),
  },
  { additionalProperties: false },
);

export const RoutingRulesParamsSchema = Type.Object({ teamId: UlidSchema });
export const RoutingRuleParamsSchema = Type.Object({ teamId: UlidSchema, ruleId: UlidSchema });

export type CreateRoutingRule = Static<typeof CreateRoutingRuleSchema>;
export type UpdateRoutingRule = Static<typeof UpdateRoutingRuleSchema>;
export type ReorderRoutingRules = Static<typeof ReorderRoutingRulesSchema>;
