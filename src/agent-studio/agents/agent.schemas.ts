import { Type } from '@sinclair/typebox';
import { HttpUrlSchema, Nullable, StringEnum, TimestampSchema, UuidSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../agent-studio.pagination.js';

/** A free-form JSON object (agent configuration, metadata). */
export const JsonObjectSchema = Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form JSON object' });

/**
 * How an agent runs, kept in its `configuration` beside whatever else clients store there (other
 * keys stay free-form). Each setting is optional; a run uses the default of one left out.
 */
export const AgentConfigurationSchema = Type.Object(
  {
    model_provider_id: Type.Optional(
      Nullable(
        Type.String({
          format: 'uuid',
          description: "A model provider of the organization; absent or null: the server's default (LLM_BASE_URL)",
        }),
      ),
    ),
    model: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 200, description: "Absent or null: the provider's default_model" })),
    ),
    system_instructions: Type.Optional(
      Nullable(Type.String({ maxLength: 20_000, description: 'What the agent is told before every conversation' })),
    ),
    temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2, description: "Absent or null: the model's own" }))),
    max_steps: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 50, description: 'Model calls a run may make, tool rounds included (default 8)' }),
    ),
    tool_timeout_seconds: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 600, description: 'Longest a tool call may take (default 30)' }),
    ),
    run_timeout_seconds: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3600, description: 'Longest a run may take, its tool calls included (default 120)' }),
    ),
    max_output_tokens: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Per model call; absent or null: the model's own" })),
    ),
    monthly_token_budget: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: 1_000_000_000_000,
          description: 'Input plus output tokens the agent may use per calendar month (UTC); absent or null: unlimited',
        }),
      ),
    ),
  },
  { description: 'Free-form JSON object; the run settings listed here are checked', additionalProperties: true },
);

export const AgentStatusSchema = StringEnum(['active', 'inactive'] as const, { description: 'Default active' });

export const AgentSchema = Type.Object(
  {
    id: UuidSchema,
    name: Type.String(),
    configuration: JsonObjectSchema,
    template_id: Nullable(UuidSchema),
    organization_id: Type.String(),
    status: AgentStatusSchema,
    description: Nullable(Type.String()),
    avatar_url: Nullable(Type.String()),
    metadata: Nullable(JsonObjectSchema),
    files: Type.Array(Type.String(), { description: 'Always empty: files are not attached to agents yet' }),
    team_id: Type.Array(Type.String(), { description: 'Always empty: agents are not bound to teams yet' }),
    completed_flows_count: Type.Integer(),
    pending_flows_count: Type.Integer(),
    created_by: Type.String({ description: 'Id of the user who created the agent' }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    usage: Type.Object(
      {
        month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'The current calendar month, in UTC (2026-11)' }),
        tokens: Type.Integer({
          description: "Input plus output tokens the agent's runs used this month; runs in progress count when they end",
        }),
        budget: Nullable(Type.Integer({ description: 'configuration.monthly_token_budget; null: unlimited' })),
      },
      { additionalProperties: false, description: 'The month’s token usage against the monthly budget' },
    ),
  },
  { additionalProperties: false, title: 'Agent' },
);

const NameSchema = Type.String({ minLength: 1, maxLength: 255 });
const editableFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  configuration: Type.Optional(AgentConfigurationSchema),
  template_id: Type.Optional(Nullable(UuidSchema)),
  avatar_url: Type.Optional(Nullable(HttpUrlSchema)),
  metadata: Type.Optional(Nullable(JsonObjectSchema)),
  status: Type.Optional(AgentStatusSchema),
};

// Agent-studio request bodies ignore unknown fields, as upstream does: no additionalProperties.
export const CreateAgentSchema = Type.Object({ name: NameSchema, ...editableFields }, { title: 'AgentCreate' });
export const UpdateAgentSchema = Type.Object({ name: Type.Optional(NameSchema), ...editableFields }, { title: 'AgentUpdate' });

export const AgentIdParamsSchema = Type.Object({ agent_id: UuidSchema });
export const ListAgentsQuerySchema = Type.Object({ status: Type.Optional(AgentStatusSchema), ...listPageFields() });

export const DeletedSchema = Type.Object(
  { status: Type.Literal('success'), message: Type.String() },
  { additionalProperties: false, title: 'DeleteResult' },
);
