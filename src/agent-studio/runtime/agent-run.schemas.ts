import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UuidSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../agent-studio.pagination.js';
import { ToolCallSchema } from '../chats/chat.schemas.js';

export const AgentRunStatusSchema = StringEnum([
  'queued',
  'running',
  'awaiting_approval',
  'succeeded',
  'failed',
  'rejected',
] as const);

const PendingToolCallSchema = Type.Object(
  { approval_id: Type.String(), tool_name: Type.String(), arguments: Type.Unknown() },
  { additionalProperties: false },
);

export const AgentRunSchema = Type.Object(
  {
    id: UuidSchema,
    agent_id: UuidSchema,
    thread_id: Nullable(UuidSchema),
    ticket_id: Nullable(Type.String()),
    acting_user_id: Type.String({ description: 'The user whose permissions the agent acted with' }),
    principal: Type.Object(
      {
        type: StringEnum(['user', 'customer_contact', 'visitor'] as const),
        id: Nullable(
          Type.String({
            description: 'The user, the customer contact (null for a requester with no contact), or the messenger visitor',
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          'Whom the run acted for: the user chatting, the agent’s creator for a draft on a ticket, or the customer whose ' +
          'email or reply started it, or the messenger visitor who asked; a customer’s or visitor’s run sees only what ' +
          'they may see',
      },
    ),
    trigger: StringEnum(['chat', 'ticket', 'messenger'] as const),
    status: AgentRunStatusSchema,
    input: Type.String({ description: 'The message the run answers' }),
    model_provider_id: Nullable(Type.String({ description: "Null for the server's default (LLM_BASE_URL)" })),
    model: Nullable(Type.String()),
    steps: Type.Integer({ description: 'Model calls made' }),
    input_tokens: Type.Integer(),
    output_tokens: Type.Integer(),
    total_tokens: Type.Integer(),
    cost: Nullable(Type.Number({ description: "From the provider's model_prices; null when the model has no price" })),
    latency_ms: Nullable(Type.Integer({ description: 'Time spent executing, without the wait in the queue or for an approval' })),
    error: Nullable(Type.String({ description: 'Why the run failed' })),
    final_text: Nullable(Type.String({ description: 'The answer of a succeeded run' })),
    handoff_reason: Nullable(
      Type.String({ description: 'Why a run on a ticket handed the ticket to a person instead of replying to the customer' }),
    ),
    tool_calls: Type.Array(ToolCallSchema, { description: 'Every tool call, in order; results capped at 32 kB' }),
    pending_approval: Nullable(
      Type.Object(
        { tool_calls: Type.Array(PendingToolCallSchema) },
        { additionalProperties: false, description: 'While awaiting_approval' },
      ),
    ),
    user_message_id: Nullable(UuidSchema),
    result_message_id: Nullable(
      Type.String({ description: 'The thread message the run wrote last: its answer, approval request or failure' }),
    ),
    created_at: TimestampSchema,
    started_at: Nullable(TimestampSchema),
    finished_at: Nullable(TimestampSchema),
  },
  { additionalProperties: false, title: 'AgentRun' },
);

export const RunParamsSchema = Type.Object({ agent_id: UuidSchema, run_id: UuidSchema });

export const ListRunsQuerySchema = Type.Object({
  status: Type.Optional(AgentRunStatusSchema),
  thread_id: Type.Optional(UuidSchema),
  ...listPageFields(),
});

export const ApprovalDecisionSchema = Type.Object(
  { reason: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: 'Told to the model with a rejection' }))) },
  { title: 'ApprovalDecision' },
);
