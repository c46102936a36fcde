export type McpServerStatus = 'connected' | 'disconnected' | 'error';
export type McpConnectionState = 'disconnected' | 'pending_auth' | 'connected' | 'auth_required' | 'error';

export interface McpServerTable {
  id: string;
  organization_id: string;
  agent_id: string;
  created_by_id: string;
  name: string;
  url: string;
  /** `none`, `oauth` or `static_header`. */
  auth_type: string;
  /** Non-secret parts of the auth configuration (client_id, scope, header name) as JSON. */
  auth_config: string | null;
  client_secret_encrypted: string | null;
  static_header_encrypted: string | null;
  tool_discovery_endpoint: string | null;
  health_check_url: string | null;
  /** `streamable_http` or `sse`, once a connect succeeded. */
  transport: string | null;
  status: McpServerStatus;
  connection_state: McpConnectionState;
  status_message: string | null;
  is_enabled: boolean | number;
  /** JSON array of the tools listed at the last successful connect. */
  discovered_tools: string | null;
  last_connected_at: string | null;
  connected_by_user_id: string | null;
  last_health_check: string | null;
  token_expires_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface McpOauthCredentialTable {
  server_id: string;
  agent_id: string;
  client_information_encrypted: string | null;
  tokens_encrypted: string | null;
  discovery_state_encrypted: string | null;
  obtained_at: string | null;
  expires_at: string | null;
  /** Compare-and-swap counter for token refresh across processes. */
  version: number;
  updated_at: string;
}

export interface McpOauthPendingFlowTable {
  state_hash: string;
  organization_id: string;
  agent_id: string;
  server_id: string;
  user_id: string;
  code_verifier_encrypted: string;
  resource_metadata_url: string | null;
  scope: string | null;
  issuer: string | null;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}
