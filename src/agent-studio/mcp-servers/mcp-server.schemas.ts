import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UuidSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../agent-studio.pagination.js';

export const McpServerStatusSchema = StringEnum(['connected', 'disconnected', 'error'] as const);
export const McpConnectionStateSchema = StringEnum(
  ['disconnected', 'pending_auth', 'connected', 'auth_required', 'error'] as const,
  {
    description: 'connected; pending_auth: an authorization URL was handed out; auth_required: the grant is gone, connect again',
  },
);

/**
 * How the service authenticates to the server. Without it the connect probes and finds out
 * (public, or OAuth with dynamic client registration). `oauth2` names a pre-registered client
 * (for authorization servers without registration); `header` sends a fixed header on every
 * request. Secrets (`client_secret`, `header_value`) are write-only.
 */
export const AuthConfigInputSchema = Type.Object(
  {
    type: Type.Optional(StringEnum(['oauth2', 'header'] as const, { description: 'Inferred from the fields when left out' })),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Write-only' })),
    scope: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    assume_pkce_s256: Type.Optional(
      Type.Boolean({ description: 'Trust an authorization server whose metadata omits code_challenge_methods_supported' }),
    ),
    header_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" })),
    header_value: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description: 'Write-only' })),
  },
  { title: 'McpAuthConfigInput' },
);

export const AuthConfigSchema = Type.Object(
  {
    type: StringEnum(['oauth2', 'header'] as const),
    client_id: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    assume_pkce_s256: Type.Optional(Type.Boolean()),
    header_name: Type.Optional(Type.String()),
  },
  { additionalProperties: false, title: 'McpAuthConfig', description: 'Non-secret parts only' },
);

export const McpServerSchema = Type.Object(
  {
    id: UuidSchema,
    agent_id: UuidSchema,
    name: Type.String(),
    url: Type.String(),
    auth_config: Nullable(AuthConfigSchema),
    tool_discovery_endpoint: Nullable(Type.String()),
    health_check_url: Nullable(Type.String()),
    status: McpServerStatusSchema,
    connection_state: McpConnectionStateSchema,
    status_message: Nullable(Type.String()),
    transport: Nullable(StringEnum(['streamable_http', 'sse'] as const)),
    is_enabled: Type.Boolean(),
    tools_count: Type.Integer({ description: 'Tools discovered at the last successful connect' }),
    last_connected_at: Nullable(TimestampSchema),
    last_health_check: Nullable(TimestampSchema),
    token_expires_at: Nullable(TimestampSchema),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  },
  { additionalProperties: false, title: 'McpServer' },
);

const UrlSchema = Type.String({ minLength: 1, maxLength: 2048, description: 'https URL of the MCP endpoint' });
const editableFields = {
  auth_config: Type.Optional(Nullable(AuthConfigInputSchema)),
  tool_discovery_endpoint: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  health_check_url: Type.Optional(
    Nullable(Type.String({ maxLength: 2048, description: 'Held to the same outbound policy as url (https, public address)' })),
  ),
  is_enabled: Type.Optional(Type.Boolean()),
};

// Agent-studio request bodies ignore unknown fields, as upstream does: no additionalProperties.
export const CreateMcpServerSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    url: UrlSchema,
    agent_id: Type.Optional(Type.String({ format: 'uuid', description: 'Must equal the path when given' })),
    ...editableFields,
  },
  { title: 'McpServerCreate' },
);

export const UpdateMcpServerSchema = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), url: Type.Optional(UrlSchema), ...editableFields },
  { title: 'McpServerUpdate' },
);

export const AgentParamsSchema = Type.Object({ agent_id: UuidSchema });
export const ServerParamsSchema = Type.Object({ agent_id: UuidSchema, server_id: UuidSchema });
export const ListMcpServersQuerySchema = Type.Object({ status: Type.Optional(McpServerStatusSchema), ...listPageFields() });

export const DiscoveredToolSchema = Type.Object(
  {
    name: Type.String(),
    title: Nullable(Type.String()),
    description: Nullable(Type.String()),
    input_schema: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false, title: 'McpDiscoveredTool' },
);

/** Endpoint 15's answer. */
export const ConnectResultSchema = Type.Object(
  {
    status: StringEnum(['connected', 'auth_required', 'error'] as const),
    message: Type.String(),
    authorization_url: Nullable(Type.String()),
  },
  { additionalProperties: false, title: 'McpConnectResult' },
);

export const RemovedSchema = Type.Object(
  { status: Type.Literal('success'), message: Type.String() },
  { additionalProperties: false, title: 'McpServerRemoved' },
);

export const CallbackQuerySchema = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 8000 })),
  state: Type.Optional(Type.String({ maxLength: 200 })),
  iss: Type.Optional(Type.String({ maxLength: 2000 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ description: 'Ignored: never shown' })),
});

export const CallbackResultSchema = Type.Object(
  {
    status: StringEnum(['connected', 'auth_required', 'error'] as const),
    message: Type.String(),
    agent_id: UuidSchema,
    server_id: UuidSchema,
  },
  { additionalProperties: false, title: 'McpOAuthCallbackResult' },
);
