import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UuidSchema } from '../../http/shared-schemas.js';
import { listPageFields, OffsetSchema } from '../agent-studio.pagination.js';
import { JsonObjectSchema } from '../agents/agent.schemas.js';

export const ChatRoleSchema = StringEnum(['user', 'assistant', 'system', 'tool'] as const);

export const ToolCallSchema = Type.Object(
  {
    tool_name: Type.String(),
    arguments: Nullable(JsonObjectSchema),
    result: Type.Unknown({ description: 'Whatever the tool returned; null while running or after an error' }),
    error: Nullable(Type.String()),
    start_time: Nullable(TimestampSchema),
    end_time: Nullable(TimestampSchema),
  },
  { additionalProperties: false, title: 'ToolCall' },
);

export const ChatMessageSchema = Type.Object(
  {
    id: UuidSchema,
    thread_id: UuidSchema,
    content: Type.String(),
    content_html: Nullable(Type.String({ description: 'Stored sanitised' })),
    role: ChatRoleSchema,
    tool_calls: Type.Array(ToolCallSchema),
    attachments: Type.Array(Type.Unknown(), { description: 'Always empty: chat attachments are not supported yet' }),
    metadata: Nullable(JsonObjectSchema),
    created_at: TimestampSchema,
    feedback: Type.Null({ description: 'Always null: message feedback is not supported yet' }),
  },
  { additionalProperties: false, title: 'ChatMessage' },
);

const threadFields = {
  id: UuidSchema,
  agent_id: UuidSchema,
  user_id: Nullable(Type.String({ description: 'The user who owns the thread' })),
  anon_user_id: Nullable(
    Type.String({
      description:
        "A messenger visitor's id when a visitor owns the thread (then `user_id` is null); a user sees only their own threads",
    }),
  ),
  organization_id: Type.String(),
  title: Nullable(Type.String()),
  metadata: Nullable(JsonObjectSchema),
  last_activity_at: Type.String({
    format: 'date-time',
    description: 'Time of the latest message, or creation; history is ordered by it',
  }),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
};

/** A thread as listed under its agent, without its messages. */
export const ChatThreadSummarySchema = Type.Object(threadFields, { additionalProperties: false, title: 'ChatThreadSummary' });

/** A thread with every message, oldest first. */
export const ChatThreadSchema = Type.Object(
  { ...threadFields, messages: Type.Array(ChatMessageSchema) },
  { additionalProperties: false, title: 'ChatThread' },
);

export const ChatHistorySchema = Type.Object(
  {
    items: Type.Array(ChatThreadSchema, { description: "The caller's threads, latest activity first, each with its messages" }),
    next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page' })),
  },
  { additionalProperties: false, title: 'ChatHistory' },
);

// Agent-studio request bodies ignore unknown fields, as upstream does: no additionalProperties.
const BodyAgentIdSchema = Type.String({ format: 'uuid', description: 'Optional; when sent, must equal the path agent_id' });

export const CreateThreadSchema = Type.Object(
  {
    agent_id: Type.Optional(BodyAgentIdSchema),
    title: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    metadata: Type.Optional(Nullable(JsonObjectSchema)),
  },
  { title: 'ChatThreadCreate' },
);

const ToolCallInputSchema = Type.Object({
  tool_name: Type.String({ minLength: 1, maxLength: 256 }),
  arguments: Type.Optional(Nullable(JsonObjectSchema)),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(Nullable(Type.String())),
  start_time: Type.Optional(Nullable(TimestampSchema)),
  end_time: Type.Optional(Nullable(TimestampSchema)),
});

export const CreateMessageSchema = Type.Object(
  {
    content: Type.String({ maxLength: 200_000 }),
    role: ChatRoleSchema,
    content_html: Type.Optional(Nullable(Type.String({ maxLength: 400_000 }))),
    metadata: Type.Optional(Nullable(JsonObjectSchema)),
    tool_calls: Type.Optional(Nullable(Type.Array(ToolCallInputSchema, { maxItems: 100 }))),
    agent_id: Type.Optional(BodyAgentIdSchema),
  },
  { title: 'ChatMessageCreate' },
);

export const ChatAgentParamsSchema = Type.Object({ agent_id: UuidSchema });
export const ChatThreadParamsSchema = Type.Object({ agent_id: UuidSchema, thread_id: UuidSchema });

/** `limit`/`offset` of the thread and message lists, as upstream's message list, and `cursor`. */
export const ChatPageQuerySchema = Type.Object({ ...listPageFields(), offset: Type.Optional(OffsetSchema) });

export const ChatHistoryQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Threads per page' })),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'next_cursor of the previous page' })),
  agent_id: Type.Optional(UuidSchema),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Only threads whose title or one of whose messages holds this text, case-insensitively (on SQLite, ASCII letters only); blank: all',
    }),
  ),
});
