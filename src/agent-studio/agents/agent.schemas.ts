import { Type } from '@sinclair/typebox';
import { HttpUrlSchema, Nullable, StringEnum, TimestampSchema, UuidSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../agent-studio.pagination.js';

/** A free-form JSON object (agent configuration, metadata). */
export const JsonObjectSchema = Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form JSON object' });

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
  },
  { additionalProperties: false, title: 'Agent' },
);

const NameSchema = Type.String({ minLength: 1, maxLength: 255 });
const editableFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  configuration: Type.Optional(JsonObjectSchema),
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
