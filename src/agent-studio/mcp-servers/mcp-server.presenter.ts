import { readBoolean, readJson } from '../../db/dialect.js';
import type { DiscoveredTool } from './connect.js';
import { storedAuthConfig } from './mcp-runtime.js';
import type { McpServerRow } from './mcp-server.repository.js';

/** An MCP server as the API answers it: the auth config without its secrets, the count of its tools. */
export function toMcpServer(row: McpServerRow) {
  const config = storedAuthConfig(row);
  return {
    id: row.id,
    agent_id: row.agent_id,
    name: row.name,
    url: row.url,
    auth_config: config
      ? {
          type: config.type,
          ...(config.client_id ? { client_id: config.client_id } : {}),
          ...(config.scope ? { scope: config.scope } : {}),
          ...(config.assume_pkce_s256 !== undefined ? { assume_pkce_s256: config.assume_pkce_s256 } : {}),
          ...(config.header_name ? { header_name: config.header_name } : {}),
        }
      : null,
    tool_discovery_endpoint: row.tool_discovery_endpoint,
    health_check_url: row.health_check_url,
    status: row.status,
    connection_state: row.connection_state,
    status_message: row.status_message,
    transport: row.transport as 'streamable_http' | 'sse' | null,
    is_enabled: readBoolean(row.is_enabled),
    tools_count: readJson<DiscoveredTool[]>(row.discovered_tools)?.length ?? 0,
    last_connected_at: row.last_connected_at,
    last_health_check: row.last_health_check,
    token_expires_at: row.token_expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
