import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema } from '../../http/shared-schemas.js';
import { SlugSchema } from './messenger.schemas.js';

/** The longest message a visitor may send. */
export const MAX_VISITOR_MESSAGE = 10_000;

export const ConversationParamsSchema = Type.Object(
  {
    slug: SlugSchema,
    conversationId: Type.String({ minLength: 1, maxLength: 64, description: 'A conversation of the visitor' }),
  },
  { additionalProperties: false },
);

export const HandoffSchema = Type.Object(
  {
    requestedAt: TimestampSchema,
    requestedBy: StringEnum(['visitor', 'assistant'] as const, {
      description: '"Talk to a person", or the assistant\'s own handoff',
    }),
    ticket: Type.String({ description: "The ticket's reference (SUP-12), as the team's emails name it" }),
    teamName: Type.String(),
    email: Nullable(
      Type.String({
        description: "Where a person's replies also go while the visitor is away: the verified contact's, or one left",
      }),
    ),
    emailRequired: Type.Boolean({
      description: 'Outside the team\'s hours with no address yet: ask for one ("We\'ll reply by email")',
    }),
    hours: Type.Object(
      {
        open: Type.Boolean({ description: 'Whether the team is within its business hours now' }),
        nextOpeningAt: Nullable(TimestampSchema),
        expectedWaitMinutes: Nullable(
          Type.Integer({
            minimum: 1,
            description: "While open: the median wait for a person's first reply on the team's chats of the last two weeks",
          }),
        ),
      },
      { additionalProperties: false },
    ),
    closed: Type.Boolean({ description: 'The ticket was closed; a new message reopens it' }),
  },
  { additionalProperties: false, title: 'MessengerHandoff' },
);

export const ConversationSchema = Type.Object(
  {
    id: Type.String(),
    title: Nullable(Type.String()),
    createdAt: TimestampSchema,
    lastActivityAt: TimestampSchema,
    handoff: Nullable(HandoffSchema),
  },
  { additionalProperties: false, title: 'MessengerConversation' },
);

export const ConversationAnswerSchema = Type.Object({ conversation: ConversationSchema }, { additionalProperties: false });

export const HandoffBodySchema = Type.Object(
  {
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 320,
        description:
          "Where a person's replies also go while the visitor is away; on a conversation handed off already, replaces it",
      }),
    ),
  },
  { additionalProperties: false },
);

export const CitationSchema = Type.Object(
  { title: Type.String(), url: Type.String({ description: "The article's address on the public site" }) },
  { additionalProperties: false },
);

export const ConversationMessageSchema = Type.Object(
  {
    id: Type.String(),
    author: StringEnum(['visitor', 'assistant', 'agent'] as const, { description: 'agent: a person of the support team' }),
    authorName: Nullable(Type.String({ description: "The person's name, for an agent's message" })),
    content: Type.String({ description: 'Plain text (an answer may hold Markdown links)' }),
    attachments: Type.Array(
      Type.Object(
        { id: Type.String(), name: Type.String(), contentType: Type.String(), size: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false },
      ),
      { description: 'Files of the message: GET …/conversations/{conversationId}/files/{id}' },
    ),
    citations: Type.Array(CitationSchema, { description: 'The help-center articles an answer links, each once' }),
    helpful: Nullable(
      Type.Boolean({
        description: 'The visitor\'s rating of an answer ("That helped"); null until rated, and for the visitor\'s own words',
      }),
    ),
    createdAt: TimestampSchema,
  },
  { additionalProperties: false, title: 'MessengerMessage' },
);

export const ConversationListSchema = Type.Object(
  {
    conversations: Type.Array(ConversationSchema, {
      description: 'Latest activity first; a verified visitor sees those of every browser',
    }),
  },
  { additionalProperties: false },
);

export const ConversationMessagesSchema = Type.Object(
  { messages: Type.Array(ConversationMessageSchema, { description: 'Oldest first, the latest 200' }) },
  { additionalProperties: false },
);

export const AnswerParamsSchema = Type.Object(
  {
    slug: SlugSchema,
    conversationId: Type.String({ minLength: 1, maxLength: 64 }),
    messageId: Type.String({ minLength: 1, maxLength: 64, description: "One of the agent's answers in the conversation" }),
  },
  { additionalProperties: false },
);

export const FeedbackBodySchema = Type.Object(
  { helpful: Type.Boolean({ description: 'true: "That helped"; false: it did not. A later rating replaces the earlier' }) },
  { additionalProperties: false },
);

export const RatedAnswerSchema = Type.Object({ message: ConversationMessageSchema }, { additionalProperties: false });

export const SendMessageBodySchema = Type.Object(
  {
    content: Type.String({
      minLength: 1,
      maxLength: MAX_VISITOR_MESSAGE,
      // No NUL, and something besides white space.
      pattern: '^[^\\u0000]*\\S[^\\u0000]*$',
      description: "The visitor's words: 1 to 10,000 characters, not only white space, no NUL",
    }),
  },
  { additionalProperties: false },
);

export const AskAnswerSchema = Type.Object(
  {
    message: ConversationMessageSchema,
    answer: Nullable(ConversationMessageSchema),
    handoffRequested: Type.Boolean({
      description:
        'Whether the assistant asked for a person to take over, or could not answer (answer is then null): offer "Talk to a person"',
    }),
    conversation: ConversationSchema,
  },
  { additionalProperties: false },
);
