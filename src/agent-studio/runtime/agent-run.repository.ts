import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { AgentRunStatus, AgentRunTable } from './agent-run.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export type AgentRunRow = AgentRunTable;

export async function insertRun(db: Db, row: AgentRunTable): Promise<void> {
  await db.insertInto('agent_runs').values(row).execute();
}

export async function findRun(db: Db, runId: string): Promise<AgentRunRow | undefined> {
  return db.selectFrom('agent_runs').selectAll().where('id', '=', runId).executeTakeFirst();
}

export async function findRunOfAgent(
  db: Db,
  organizationId: string,
  agentId: string,
  runId: string,
): Promise<AgentRunRow | undefined> {
  return db
    .selectFrom('agent_runs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('agent_id', '=', agentId)
    .where('id', '=', runId)
    .executeTakeFirst();
}

/** A page of an agent's runs, newest first, after the keys `[sort_key, id]`. */
export async function listRunsOfAgent(
  db: Db,
  agentId: string,
  filter: { actingUserId?: string; threadId?: string; status?: AgentRunStatus },
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<AgentRunRow[]> {
  let query = db.selectFrom('agent_runs').selectAll().where('agent_id', '=', agentId);
  if (filter.actingUserId) {
    query = query.where('acting_user_id', '=', filter.actingUserId);
  }
  if (filter.threadId) {
    query = query.where('thread_id', '=', filter.threadId);
  }
  if (filter.status) {
    query = query.where('status', '=', filter.status);
  }
  return inKeysetOrder(query, ['sort_key', 'id'], page.after, 'desc').limit(page.limit).execute();
}

/** Holds the thread's row until commit: whoever claims a turn of its queue does so alone. */
export async function lockThread(trx: Transaction<DB>, threadId: string): Promise<void> {
  await forUpdate(trx, trx.selectFrom('chat_threads').select('id').where('id', '=', threadId)).execute();
}

/** The run holding the thread (running, or paused for an approval), if any. */
export async function findActiveRunOfThread(db: Db, threadId: string) {
  return db
    .selectFrom('agent_runs')
    .select(['id', 'status', 'lease_expires_at'])
    .where('thread_id', '=', threadId)
    .where('status', 'in', ['running', 'awaiting_approval'])
    .executeTakeFirst();
}

/** The thread's queued runs written before `sortKey`, oldest first. */
export async function listQueuedRunsBefore(db: Db, threadId: string, sortKey: string) {
  return db
    .selectFrom('agent_runs')
    .select(['id', 'lease_expires_at'])
    .where('thread_id', '=', threadId)
    .where('status', '=', 'queued')
    .where('sort_key', '<', sortKey)
    .orderBy('sort_key')
    .execute();
}

/** The messages that queued runs of the thread answer: they come after whatever run is executing. */
export async function listQueuedUserMessageIds(db: Db, threadId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('agent_runs')
    .select('user_message_id')
    .where('thread_id', '=', threadId)
    .where('status', '=', 'queued')
    .execute();
  return rows.flatMap((row) => (row.user_message_id ? [row.user_message_id] : []));
}

/**
 * Changes a run only while it is in one of `statuses` (and, with `leaseOwner`, still held by that
 * process): a process that lost its lease never overwrites what another wrote. Answers whether it did.
 */
export async function updateRunIf(
  db: Db,
  runId: string,
  expected: { statuses: readonly AgentRunStatus[]; leaseOwner?: string },
  changes: Updateable<AgentRunTable>,
): Promise<boolean> {
  let query = db
    .updateTable('agent_runs')
    .set(changes)
    .where('id', '=', runId)
    .where('status', 'in', [...expected.statuses]);
  if (expected.leaseOwner !== undefined) {
    query = query.where('lease_owner', '=', expected.leaseOwner);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Runs queued or running whose process stopped vouching for them before `now`. */
export async function listAbandonedRuns(db: Db, now: string, limit: number): Promise<AgentRunRow[]> {
  return db
    .selectFrom('agent_runs')
    .selectAll()
    .where('status', 'in', ['queued', 'running'])
    .where('lease_expires_at', '<', now)
    .orderBy('lease_expires_at')
    .limit(limit)
    .execute();
}

/**
 * The agent's runs on tickets handed to a person for one of `reasons`, created from `since`,
 * newest first, at most `limit`: a range of the `(agent_id, created_at)` index.
 */
export async function listTicketHandoffsOfAgent(
  db: Db,
  organizationId: string,
  agentId: string,
  filter: { reasons: readonly string[]; since: string; limit: number },
) {
  return db
    .selectFrom('agent_runs')
    .select(['id', 'ticket_id', 'input', 'created_at'])
    .where('agent_id', '=', agentId)
    .where('organization_id', '=', organizationId)
    .where('created_at', '>=', filter.since)
    .where('trigger', '=', 'ticket')
    .where('handoff_reason', 'in', [...filter.reasons])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .execute();
}
