import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema } from '../../http/shared-schemas.js';
import { SLACK_CHANNEL_KINDS, SLACK_CHANNEL_STATUSES, SLACK_DETECTION_MODES } from './slack-channel.table.js';

const closed = { additionalProperties: false } as const;

/** Slack's conversation ids: `C…` (public), `G…` (private, older workspaces), `D…` never (the bot reads no DMs). */
export const SlackChannelIdSchema = Type.String({
  pattern: '^[CG][A-Z0-9]{2,30}$',
  description: "Slack's channel id (C… or G…)",
});

export const SlackChannelParamsSchema = Type.Object({ channelId: SlackChannelIdSchema }, closed);

/** What switches a customer channel's `rules` mode; null on a channel: the built-in defaults. */
export const SlackDetectionRulesSchema = Type.Object(
  {
    keywords: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      description: "Words that make a message a request ('broken', 'error', 'urgent'), matched ignoring case",
    }),
    excludedPatterns: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 50,
      description:
        "Words or phrases (whole words, ignoring case: 'thanks', 'out of office') that make a short message chatter, " +
        'unless it also holds a keyword, a question mark or a mention of the bot',
    }),
    questions: Type.Boolean({ description: 'A question (a question mark, or a question word first) counts as a request' }),
    botMentions: Type.Boolean({ description: 'A message mentioning the bot counts as a request' }),
  },
  closed,
);
export type SlackDetectionRules = Static<typeof SlackDetectionRulesSchema>;

export const MIN_GROUP_WINDOW_SECONDS = 30;
export const MAX_GROUP_WINDOW_SECONDS = 3600;

export const SlackChannelSchema = Type.Object(
  {
    channelId: Type.String(),
    name: Type.String({ description: 'Without #' }),
    isPrivate: Type.Boolean(),
    isShared: Type.Boolean({ description: 'A Slack Connect channel, shared with another workspace (a customer’s)' }),
    kind: StringEnum(SLACK_CHANNEL_KINDS, { description: 'ignored until an admin says otherwise' }),
    accountId: Nullable(Type.String()),
    teamId: Nullable(Type.String({ description: 'The team that gets its tickets' })),
    detectionMode: StringEnum(SLACK_DETECTION_MODES),
    groupWindowSeconds: Type.Integer(),
    detectionRules: Nullable(SlackDetectionRulesSchema),
    status: StringEnum(SLACK_CHANNEL_STATUSES),
    disconnectedReason: Nullable(Type.String({ description: 'Why Slack refused the bot there (not_in_channel, …)' })),
    suggestedAccountId: Nullable(
      Type.String({
        description:
          "For a Slack Connect channel without an account: the account whose domain is the partner workspace's email domain",
      }),
    ),
  },
  closed,
);

export const UpdateSlackChannelSchema = Type.Object(
  {
    kind: Type.Optional(StringEnum(SLACK_CHANNEL_KINDS)),
    accountId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    teamId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    detectionMode: Type.Optional(StringEnum(SLACK_DETECTION_MODES)),
    groupWindowSeconds: Type.Optional(
      Type.Integer({
        minimum: MIN_GROUP_WINDOW_SECONDS,
        maximum: MAX_GROUP_WINDOW_SECONDS,
        description: "A person's messages within this many seconds of their last are one request",
      }),
    ),
    detectionRules: Type.Optional(Nullable(SlackDetectionRulesSchema)),
  },
  { ...closed, minProperties: 1 },
);
export type UpdateSlackChannel = Static<typeof UpdateSlackChannelSchema>;

export const SLACK_DECISION_MARKS = ['right', 'wrong'] as const;

export const SlackDecisionSchema = Type.Object(
  {
    id: Type.String(),
    channelId: Type.String(),
    channelName: Nullable(Type.String()),
    slackUserId: Type.String(),
    text: Type.String(),
    mode: Type.String({ description: 'all, rules, ai, or reaction (someone added 🎫)' }),
    isRequest: Type.Boolean(),
    reason: Type.String(),
    ticketId: Nullable(Type.String()),
    mark: Nullable(StringEnum(SLACK_DECISION_MARKS)),
    markedBy: Nullable(Type.String()),
    markedAt: Nullable(TimestampSchema),
    createdAt: TimestampSchema,
  },
  closed,
);

export const ListSlackDecisionsQuerySchema = Type.Object(
  {
    channelId: Type.Optional(SlackChannelIdSchema),
    isRequest: Type.Optional(Type.Boolean()),
    mark: Type.Optional(StringEnum(['right', 'wrong', 'unmarked'] as const)),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(CursorSchema),
  },
  closed,
);
export type ListSlackDecisionsQuery = Static<typeof ListSlackDecisionsQuerySchema>;

export const SlackDecisionParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, closed);

export const MarkSlackDecisionSchema = Type.Object(
  { mark: Nullable(StringEnum(SLACK_DECISION_MARKS, { description: 'null clears the mark' })) },
  closed,
);

export const SlackDetectionReportQuerySchema = Type.Object(
  {
    channelId: Type.Optional(SlackChannelIdSchema),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Decisions made at or after' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Decisions made before' })),
  },
  closed,
);
export type SlackDetectionReportQuery = Static<typeof SlackDetectionReportQuerySchema>;

const Count = Type.Integer({ minimum: 0 });
const Ratio = Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'null when nothing was counted for it' }));

export const SlackDetectionReportRowSchema = Type.Object(
  {
    channelId: Type.String(),
    channelName: Nullable(Type.String()),
    mode: Type.String(),
    marked: Count,
    unmarked: Count,
    truePositives: Type.Integer({ minimum: 0, description: 'Requests marked right' }),
    falsePositives: Type.Integer({ minimum: 0, description: 'Requests marked wrong' }),
    trueNegatives: Type.Integer({ minimum: 0, description: 'Chatter marked right' }),
    falseNegatives: Type.Integer({ minimum: 0, description: 'Chatter marked wrong: a request missed' }),
    precision: Ratio,
    recall: Ratio,
  },
  closed,
);
