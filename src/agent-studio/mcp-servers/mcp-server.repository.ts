import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { McpOauthCredentialTable, McpOauthPendingFlowTable, McpServerStatus, McpServerTable } from './mcp-server.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const SERVER_COLUMNS = [
  'id',
  'organization_id',
  'agent_id',
  'created_by_id',
  'name',
  'url',
  'auth_type',
  'auth_config',
  'client_secret_encrypted',
  'static_header_encrypted',
  'tool_discovery_endpoint',
  'health_check_url',
  'transport',
  'status',
  'connection_state',
  'status_message',
  'is_enabled',
  'discovered_tools',
  'last_connected_at',
  'connected_by_user_id',
  'last_health_check',
  'token_expires_at',
  'created_at',
  'updated_at',
] as const;

export type McpServerRow = Pick<McpServerTable, (typeof SERVER_COLUMNS)[number]>;

export async function insertMcpServer(db: Db, row: McpServerTable): Promise<void> {
  await db.insertInto('mcp_servers').values(row).execute();
}

/** A live (not deleted) server of the agent. */
export async function findMcpServer(db: Db, agentId: string, serverId: string): Promise<McpServerRow | undefined> {
  return db
    .selectFrom('mcp_servers')
    .select(SERVER_COLUMNS)
    .where('agent_id', '=', agentId)
    .where('id', '=', serverId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listMcpServers(
  db: Db,
  agentId: string,
  filter: { status?: McpServerStatus },
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<McpServerRow[]> {
  let query = db.selectFrom('mcp_servers').select(SERVER_COLUMNS).where('agent_id', '=', agentId).where('deleted_at', 'is', null);
  if (filter.status) {
    query = query.where('status', '=', filter.status);
  }
  return inKeysetOrder(query, ['created_at', 'id'], page.after).limit(page.limit).execute();
}

export async function updateMcpServer(db: Db, serverId: string, changes: Updateable<McpServerTable>): Promise<void> {
  await db.updateTable('mcp_servers').set(changes).where('id', '=', serverId).where('deleted_at', 'is', null).execute();
}

/** Soft delete; true when this call deleted it (a concurrent delete loses). */
export async function softDeleteMcpServer(db: Db, serverId: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('mcp_servers')
    .set({ deleted_at: at, updated_at: at, status: 'disconnected', connection_state: 'disconnected', status_message: null })
    .where('id', '=', serverId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Tools of type mcp_server that use the server stop being offered to the agent. */
export async function disableToolsOfMcpServer(db: Db, serverId: string, at: string): Promise<void> {
  await db
    .updateTable('agent_tools')
    .set({ is_enabled: false, updated_at: at })
    .where('mcp_server_id', '=', serverId)
    .where('tool_type', '=', 'mcp_server')
    .execute();
}

// --- OAuth credentials (one row per server; `version` guards concurrent writers) ---

export type CredentialRow = McpOauthCredentialTable;

export async function findCredentials(db: Db, serverId: string): Promise<CredentialRow | undefined> {
  return db
    .selectFrom('mcp_oauth_credentials')
    .select([
      'server_id',
      'agent_id',
      'client_information_encrypted',
      'tokens_encrypted',
      'discovery_state_encrypted',
      'obtained_at',
      'expires_at',
      'version',
      'updated_at',
    ])
    .where('server_id', '=', serverId)
    .executeTakeFirst();
}

/** Creates the empty row once; later writes are updates. */
export async function ensureCredentials(db: Db, serverId: string, agentId: string, at: string): Promise<void> {
  await db
    .insertInto('mcp_oauth_credentials')
    .values({
      server_id: serverId,
      agent_id: agentId,
      client_information_encrypted: null,
      tokens_encrypted: null,
      discovery_state_encrypted: null,
      obtained_at: null,
      expires_at: null,
      version: 0,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.column('server_id').doNothing())
    .execute();
}

type CredentialChanges = Omit<Updateable<McpOauthCredentialTable>, 'server_id' | 'agent_id' | 'version'>;

/** Writes and bumps the version; with `expectedVersion`, only if nobody wrote since (true when written). */
export async function updateCredentials(
  db: Db,
  serverId: string,
  changes: CredentialChanges,
  expectedVersion?: number,
): Promise<boolean> {
  let query = db
    .updateTable('mcp_oauth_credentials')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
    .where('server_id', '=', serverId);
  if (expectedVersion !== undefined) {
    query = query.where('version', '=', expectedVersion);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteCredentials(db: Db, serverId: string): Promise<void> {
  await db.deleteFrom('mcp_oauth_credentials').where('server_id', '=', serverId).execute();
}

// --- Pending authorization flows (keyed by sha256 of the state) ---

export type PendingFlowRow = McpOauthPendingFlowTable;

export async function insertPendingFlow(db: Db, row: McpOauthPendingFlowTable): Promise<void> {
  await db.insertInto('mcp_oauth_pending_flows').values(row).execute();
}

/** The flow for this state if it is still open: unconsumed and unexpired. */
export async function findOpenFlow(db: Db, stateHash: string, now: string): Promise<PendingFlowRow | undefined> {
  return db
    .selectFrom('mcp_oauth_pending_flows')
    .select([
      'state_hash',
      'organization_id',
      'agent_id',
      'server_id',
      'user_id',
      'code_verifier_encrypted',
      'resource_metadata_url',
      'scope',
      'issuer',
      'created_at',
      'expires_at',
      'consumed_at',
    ])
    .where('state_hash', '=', stateHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks the flow used; true for exactly one caller however many race. */
export async function consumeFlow(db: Db, stateHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('mcp_oauth_pending_flows')
    .set({ consumed_at: now })
    .where('state_hash', '=', stateHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteFlowsOfServer(db: Db, serverId: string): Promise<void> {
  await db.deleteFrom('mcp_oauth_pending_flows').where('server_id', '=', serverId).execute();
}

/** Flows past their lifetime are of no use to anyone. */
export async function deleteExpiredFlows(db: Db, now: string): Promise<void> {
  await db.deleteFrom('mcp_oauth_pending_flows').where('expires_at', '<=', now).execute();
}
