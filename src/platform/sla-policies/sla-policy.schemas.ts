import { type Static, Type } from '@sinclair/typebox';
import { Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ULID_PATTERN } from '../../lib/ids.js';

/** PostgreSQL's `integer`, the column's type. */
export const MAX_POSITION = 2_147_483_647;
/** The most policies one reorder names: far more than an organization keeps, so the body stays bounded. */
export const MAX_REORDERED_POLICIES = 1000;
/** A year of minutes: a longer target is a typo, not a promise. */
const MAX_TARGET_MINUTES = 525_600;

const conditionList = (description: string, defaultValue?: string[]) =>
  Type.Array(
    Type.String({
      maxLength: 2000,
      description:
        'A JSON object written as a string, as routing rules take: {"field", "operator", "value", "precedence"?}. ' +
        'Fields: teamId, priority, status, tags, accountId, source, type, title, description, requestorEmail, ' +
        'customField.<fieldId>. Operators: equals, not_equals, contains, not_contains, starts_with, in, is_empty, is_not_empty.',
    }),
    { maxItems: 50, description, ...(defaultValue && { default: defaultValue }) },
  );

const minutes = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TARGET_MINUTES, description: `${description}, in minutes` }));

export const SlaTargetsSchema = Type.Object(
  {
    firstReply: minutes('Ticket created to the first public agent reply'),
    nextReply: minutes('The oldest unanswered customer comment to the next public agent reply'),
    periodicUpdate: minutes('Between public agent replies'),
    resolution: minutes('Ticket created to closed, reopened time counted'),
  },
  { additionalProperties: false, minProperties: 1 },
);

const PRIORITY_NAME = '^[a-z0-9_]{1,50}$';

const TargetsByPrioritySchema = Type.Record(Type.String({ pattern: PRIORITY_NAME }), SlaTargetsSchema, {
  additionalProperties: false,
  maxProperties: 50,
  description:
    "Targets per priority name (the team's priority keys: low, medium, high, urgent by default). A reply target " +
    'may not exceed `resolution`. A ticket whose priority has no entry gets no targets.',
});

const NameSchema = Type.String({ minLength: 1, maxLength: 255 });
const DescriptionSchema = Type.String({ maxLength: 1000 });
const position = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_POSITION, description });
const POSITION = 'Evaluation order, ascending, unique in the organization; the first matching policy applies';
const WarningShareSchema = Type.Number({
  exclusiveMinimum: 0,
  exclusiveMaximum: 1,
  description: 'Share of a target after which the SLA warning is due (0 < x < 1)',
});

export const SlaPolicySchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    description: Nullable(Type.String()),
    position: Type.Integer(),
    andRules: Type.Array(Type.String()),
    orRules: Type.Array(Type.String()),
    targets: TargetsByPrioritySchema,
    businessHours: Type.Boolean(),
    aiRepliesCount: Type.Boolean(),
    warningShare: Type.Number(),
    createdById: UlidSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const CreateSlaPolicySchema = Type.Object(
  {
    name: NameSchema,
    description: Type.Optional(Nullable(DescriptionSchema)),
    position: Type.Optional(position(`${POSITION}. Default: one more than the highest, 0 for the first policy`)),
    andRules: Type.Optional(conditionList('Conditions that must all hold', [])),
    orRules: Type.Optional(conditionList('When not empty, at least one of these must hold', [])),
    targets: TargetsByPrioritySchema,
    businessHours: Type.Optional(
      Type.Boolean({ default: true, description: "Count in the ticket's team's business hours (else calendar time)" }),
    ),
    aiRepliesCount: Type.Optional(
      Type.Boolean({ default: false, description: "Whether an AI agent's public reply meets a reply target" }),
    ),
    warningShare: Type.Optional({ ...WarningShareSchema, default: 0.75 }),
  },
  { additionalProperties: false },
);

/** Any subset of the creation fields; `description` is cleared by `null`. */
export const UpdateSlaPolicySchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    description: Type.Optional(Nullable(DescriptionSchema)),
    position: Type.Optional(position(POSITION)),
    andRules: Type.Optional(conditionList('Conditions that must all hold')),
    orRules: Type.Optional(conditionList('When not empty, at least one of these must hold')),
    targets: Type.Optional(TargetsByPrioritySchema),
    businessHours: Type.Optional(Type.Boolean()),
    aiRepliesCount: Type.Optional(Type.Boolean()),
    warningShare: Type.Optional(WarningShareSchema),
  },
  { additionalProperties: false },
);

export const ReorderSlaPoliciesSchema = Type.Object(
  {
    policyIds: Type.Array(Type.String({ pattern: ULID_PATTERN, description: 'ULID (26 characters)' }), {
      maxItems: MAX_REORDERED_POLICIES,
      description: 'Every policy of the organization, each once, in its new order: the first gets position 0, and so on',
    }),
  },
  { additionalProperties: false },
);

export const SlaPolicyParamsSchema = Type.Object({ id: UlidSchema });

export type SlaTargets = Static<typeof SlaTargetsSchema>;
export type CreateSlaPolicy = Static<typeof CreateSlaPolicySchema>;
export type UpdateSlaPolicy = Static<typeof UpdateSlaPolicySchema>;
export type ReorderSlaPolicies = Static<typeof ReorderSlaPoliciesSchema>;
