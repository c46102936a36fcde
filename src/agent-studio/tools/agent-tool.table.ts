export type ToolType = 'built_in' | 'mcp_server' | 'external_tool';

export interface AgentToolTable {
  id: string;
  organization_id: string;
  agent_id: string;
  tool_name: string;
  tool_type: ToolType;
  configuration: string | null;
  is_enabled: boolean | number;
  mcp_server_id: string | null;
  external_tool_connection_id: string | null;
  /** A run pauses for a person's approval before calling it. */
  require_approval: boolean | number;
  /** An admin allows it in runs that act for a customer (MCP, external tools and ticket search are off there otherwise). */
  customer_facing: boolean | number;
  created_at: string;
  updated_at: string;
}
