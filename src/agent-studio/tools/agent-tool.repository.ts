import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { AgentToolTable, ToolType } from './agent-tool.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const TOOL_COLUMNS = [
  'id',
  'organization_id',
  'agent_id',
  'tool_name',
  'tool_type',
  'configuration',
  'is_enabled',
  'mcp_server_id',
  'external_tool_connection_id',
  'require_approval',
  'customer_facing',
  'created_at',
  'updated_at',
] as const;

export type AgentToolRow = Pick<AgentToolTable, (typeof TOOL_COLUMNS)[number]>;

export async function insertAgentTool(db: Db, row: AgentToolTable): Promise<void> {
  await db.insertInto('agent_tools').values(row).execute();
}

export async function findAgentToolById(db: Db, agentId: string, toolId: string): Promise<AgentToolRow | undefined> {
  return db
    .selectFrom('agent_tools')
    .select(TOOL_COLUMNS)
    .where('agent_id', '=', agentId)
    .where('id', '=', toolId)
    .executeTakeFirst();
}

export async function findAgentToolByName(db: Db, agentId: string, toolName: string) {
  return db
    .selectFrom('agent_tools')
    .select(['id'])
    .where('agent_id', '=', agentId)
    .where('tool_name', '=', toolName)
    .executeTakeFirst();
}

/** The agent's tools in creation order. */
export async function listAgentTools(
  db: Db,
  agentId: string,
  filter: { toolType?: ToolType; isEnabled?: boolean },
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<AgentToolRow[]> {
  let query = db.selectFrom('agent_tools').select(TOOL_COLUMNS).where('agent_id', '=', agentId);
  if (filter.toolType) {
    query = query.where('tool_type', '=', filter.toolType);
  }
  if (filter.isEnabled !== undefined) {
    query = query.where('is_enabled', '=', filter.isEnabled);
  }
  return inKeysetOrder(query, ['created_at', 'id'], page.after).limit(page.limit).execute();
}

export async function updateAgentTool(
  db: Db,
  agentId: string,
  toolId: string,
  changes: Updateable<AgentToolTable>,
): Promise<void> {
  await db.updateTable('agent_tools').set(changes).where('agent_id', '=', agentId).where('id', '=', toolId).execute();
}

export async function deleteAgentTool(db: Db, agentId: string, toolId: string): Promise<number> {
  const result = await db.deleteFrom('agent_tools').where('agent_id', '=', agentId).where('id', '=', toolId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether `serverId` is a live (not deleted) MCP server of the agent; read straight from the table. */
export async function mcpServerBelongsToAgent(db: Db, agentId: string, serverId: string): Promise<boolean> {
  const row = await db
    .selectFrom('mcp_servers')
    .select(['id'])
    .where('agent_id', '=', agentId)
    .where('id', '=', serverId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
