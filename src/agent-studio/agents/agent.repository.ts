import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { AgentStatus, AgentTable } from './agent.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const AGENT_COLUMNS = [
  'id',
  'organization_id',
  'created_by_id',
  'name',
  'description',
  'configuration',
  'template_id',
  'avatar_url',
  'metadata',
  'status',
  'created_at',
  'updated_at',
] as const;

export type AgentRow = Pick<AgentTable, (typeof AGENT_COLUMNS)[number]>;

export async function insertAgent(db: Db, row: AgentTable): Promise<void> {
  await db.insertInto('agents').values(row).execute();
}

/** A live (not deleted) agent of the organization. */
export async function findAgentById(db: Db, organizationId: string, agentId: string): Promise<AgentRow | undefined> {
  return db
    .selectFrom('agents')
    .select(AGENT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', agentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A page of the organization's live agents, oldest first, after the keys `[created_at, id]`. */
export async function listAgents(
  db: Db,
  organizationId: string,
  filter: { status?: AgentStatus },
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<AgentRow[]> {
  let query = db
    .selectFrom('agents')
    .select(AGENT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
  if (filter.status) {
    query = query.where('status', '=', filter.status);
  }
  return inKeysetOrder(query, ['created_at', 'id'], page.after).limit(page.limit).execute();
}

export async function updateAgent(
  db: Db,
  organizationId: string,
  agentId: string,
  changes: Updateable<AgentTable>,
): Promise<void> {
  await db
    .updateTable('agents')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', agentId)
    .where('deleted_at', 'is', null)
    .execute();
}
