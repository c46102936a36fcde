import { type Static, Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';

export const MAX_DELAY_MINUTES = 43_200;
export const MAX_COOLDOWN_DAYS = 365;
export const MAX_SKIP_IDS = 100;
export const MAX_COMMENT_LENGTH = 2000;

const SkipWhenSchema = Type.Object(
  {
    tagIds: Type.Array(UlidSchema, {
      maxItems: MAX_SKIP_IDS,
      uniqueItems: true,
      description: 'Team tags (ids): a ticket with any of them is not surveyed',
    }),
    priorityIds: Type.Array(UlidSchema, {
      maxItems: MAX_SKIP_IDS,
      uniqueItems: true,
      description: "The team's priorities (ids): a ticket in any of them is not surveyed",
    }),
  },
  { additionalProperties: false },
);

const settingsFields = {
  enabled: Type.Boolean({ description: 'Whether closing a ticket of the team queues a survey' }),
  delayMinutes: Type.Integer({
    minimum: 0,
    maximum: MAX_DELAY_MINUTES,
    description: 'Minutes after the close before the survey is emailed (0 to 43200, 30 days)',
  }),
  samplingShare: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'The share of closes surveyed, 0 to 1; decided when the ticket closes',
  }),
  cooldownDays: Type.Integer({
    minimum: 0,
    maximum: MAX_COOLDOWN_DAYS,
    description: 'No second survey to the same requestor within this many days (0 to 365); checked when sending',
  }),
  skipWhen: SkipWhenSchema,
};

export const SatisfactionSettingsSchema = Type.Object(
  { teamId: UlidSchema, ...settingsFields, updatedAt: Nullable(TimestampSchema) },
  { additionalProperties: false },
);
export type SatisfactionSettings = Static<typeof SatisfactionSettingsSchema>;

/** The whole settings: a PUT replaces them. */
export const PutSatisfactionSettingsSchema = Type.Object(settingsFields, { additionalProperties: false });
export type PutSatisfactionSettings = Static<typeof PutSatisfactionSettingsSchema>;

export const SurveyStatusSchema = StringEnum(['pending', 'sent', 'skipped', 'rated'] as const);
export const SurveyRatingSchema = StringEnum(['good', 'bad'] as const);

export const SatisfactionSurveySchema = Type.Object(
  {
    id: UlidSchema,
    ticketId: UlidSchema,
    status: SurveyStatusSchema,
    skipReason: Nullable(
      StringEnum(['sampled_out', 'skip_condition', 'cooldown', 'reopened', 'no_address', 'gone'] as const, {
        description: 'Why a skipped survey was not sent',
      }),
    ),
    manual: Type.Boolean({ description: 'Asked for by hand rather than by the close' }),
    sendAt: TimestampSchema,
    sentAt: Nullable(TimestampSchema),
    expiresAt: Nullable(TimestampSchema),
    rating: Nullable(SurveyRatingSchema),
    comment: Nullable(Type.String()),
    ratedAt: Nullable(TimestampSchema),
    reopenedAt: Nullable(TimestampSchema),
    createdAt: TimestampSchema,
  },
  { additionalProperties: false },
);
export type SatisfactionSurvey = Static<typeof SatisfactionSurveySchema>;

/** The link's query; other parameters (a mail client's link tracking) are ignored, so the link still opens. */
export const SurveyPageQuerySchema = Type.Object(
  {
    ticket: Type.Optional(Type.String({ maxLength: 100, description: 'The ticket the link is for' })),
    token: Type.Optional(Type.String({ maxLength: 200, description: 'The token of the emailed link' })),
    rating: Type.Optional(Type.String({ maxLength: 10, description: 'good or bad: the answer the page offers first' })),
  },
  { additionalProperties: true },
);

export const SurveyFormSchema = Type.Object(
  {
    ticket: Type.String({ maxLength: 100 }),
    token: Type.String({ maxLength: 200 }),
    rating: Type.String({ maxLength: 10 }),
    comment: Type.Optional(Type.String({ maxLength: MAX_COMMENT_LENGTH })),
  },
  { additionalProperties: false },
);
export type SurveyForm = Static<typeof SurveyFormSchema>;

export const SurveyPageSchema = Type.String({
  description: 'An HTML page for the customer who opened the link: the rating form, a thank-you, or why the link cannot be used',
});
