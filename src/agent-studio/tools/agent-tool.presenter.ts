import { readBoolean, readJson } from '../../db/dialect.js';
import type { AgentToolRow } from './agent-tool.repository.js';

export type Configuration = Record<string, unknown>;

export function toAgentTool(row: AgentToolRow) {
  return {
    id: row.id,
    agent_id: row.agent_id,
    tool_name: row.tool_name,
    tool_type: row.tool_type,
    configuration: readJson<Configuration>(row.configuration),
    is_enabled: readBoolean(row.is_enabled),
    mcp_server_id: row.mcp_server_id,
    external_tool_connection_id: row.external_tool_connection_id,
    require_approval: readBoolean(row.require_approval),
    customer_facing: readBoolean(row.customer_facing),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
