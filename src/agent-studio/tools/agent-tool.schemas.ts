import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UuidSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../agent-studio.pagination.js';
import { JsonObjectSchema } from '../agents/agent.schemas.js';

/** What marking a tool customer-facing lets through, said wherever the field is documented. */
const CUSTOMER_FACING_DESCRIPTION =
  'Whether the tool may run when the agent acts for a customer (a run started by an email or a customer reply on a ticket). ' +
  'Off by default: such runs see only the requester’s own tickets, contact and published articles, and are offered no MCP or ' +
  'external tool and no ticket search. Warning: marking an MCP or external tool lets whatever it answers reach the model ' +
  'that replies to the customer, so anyone who can email your support address can ask for it. Only org admins may set it, ' +
  'and only admins may change a tool that has it.';

export const ToolTypeSchema = StringEnum(['built_in', 'mcp_server', 'external_tool'] as const);

/** The contract's agent tool configuration, field for field. */
export const AgentToolSchema = Type.Object(
  {
    id: UuidSchema,
    agent_id: UuidSchema,
    tool_name: Type.String(),
    tool_type: ToolTypeSchema,
    configuration: Nullable(JsonObjectSchema),
    is_enabled: Type.Boolean(),
    mcp_server_id: Nullable(UuidSchema),
    external_tool_connection_id: Nullable(UuidSchema),
    require_approval: Type.Boolean({ description: 'A run pauses for a person to approve or reject each call of this tool' }),
    customer_facing: Type.Boolean({ description: CUSTOMER_FACING_DESCRIPTION }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  },
  { additionalProperties: false, title: 'AgentTool' },
);

const ToolNameSchema = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'Unique per agent; for built_in, a name from GET /api/v1/tools/built-in',
});
const referenceFields = {
  configuration: Type.Optional(
    Nullable(
      Type.Record(Type.String(), Type.Unknown(), { description: "Tool settings; for built_in, valid against the tool's schema" }),
    ),
  ),
  is_enabled: Type.Optional(Type.Boolean({ default: true })),
  require_approval: Type.Optional(
    Type.Boolean({ default: false, description: 'Pause the run for a person to approve or reject each call (default false)' }),
  ),
  customer_facing: Type.Optional(Type.Boolean({ default: false, description: CUSTOMER_FACING_DESCRIPTION })),
  mcp_server_id: Type.Optional(Nullable(Type.String({ format: 'uuid', description: 'Required for mcp_server, else null' }))),
  external_tool_connection_id: Type.Optional(
    Nullable(Type.String({ format: 'uuid', description: 'Required for external_tool, else null' })),
  ),
};

// Agent-studio request bodies ignore unknown fields, as upstream does: no additionalProperties.
export const CreateAgentToolSchema = Type.Object(
  {
    agent_id: Type.String({ format: 'uuid', description: 'Required; must equal the agent_id of the path' }),
    tool_name: ToolNameSchema,
    tool_type: ToolTypeSchema,
    ...referenceFields,
  },
  { title: 'AgentToolCreate' },
);

export const UpdateAgentToolSchema = Type.Object(
  {
    tool_name: Type.Optional(ToolNameSchema),
    tool_type: Type.Optional(ToolTypeSchema),
    ...referenceFields,
    is_enabled: Type.Optional(Type.Boolean()),
    require_approval: Type.Optional(Type.Boolean()),
    customer_facing: Type.Optional(Type.Boolean()),
  },
  { title: 'AgentToolUpdate' },
);

export const AgentToolParamsSchema = Type.Object({ agent_id: UuidSchema, tool_id: UuidSchema });

export const ListAgentToolsQuerySchema = Type.Object({
  tool_type: Type.Optional(ToolTypeSchema),
  is_enabled: Type.Optional(Type.Boolean()),
  ...listPageFields(),
});

export const BuiltInToolSchema = Type.Object(
  {
    tool_name: Type.String(),
    tool_type: Type.Literal('built_in'),
    display_name: Type.String(),
    description: Type.String(),
    configuration_schema: Type.Record(Type.String(), Type.Unknown(), { description: "JSON Schema of the tool's configuration" }),
  },
  { additionalProperties: false, title: 'BuiltInTool' },
);
