import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { inJsonArray } from '../../db/dialect.js';

type Db = Kysely<DB> | Transaction<DB>;

/** One agent's month. */
export interface UsageKey {
  agentId: string;
  organizationId: string;
  /** The first instant of the month, UTC. */
  periodStart: string;
}

/**
 * Makes the month's row if it has none, counting what the agent's runs of the month used so far
 * (runs from before this row existed); a row made meanwhile by another process is kept.
 */
export async function ensureUsageRow(db: Db, key: UsageKey, now: string): Promise<void> {
  await db
    .insertInto('agent_token_usage')
    .columns(['agent_id', 'period_start', 'organization_id', 'used_tokens', 'reserved_tokens', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('agent_runs')
        .select([
          sql.val(key.agentId).as('agent_id'),
          sql.val(key.periodStart).as('period_start'),
          sql.val(key.organizationId).as('organization_id'),
          sql<number>`coalesce(sum(input_tokens + output_tokens), 0)`.as('used_tokens'),
          sql.val(0).as('reserved_tokens'),
          sql.val(now).as('updated_at'),
        ])
        .where('agent_id', '=', key.agentId)
        .where('created_at', '>=', key.periodStart),
    )
    .onConflict((oc) => oc.columns(['agent_id', 'period_start']).doNothing())
    .execute();
}

export async function findUsage(db: Db, key: UsageKey): Promise<{ used: number; reserved: number } | undefined> {
  const row = await db
    .selectFrom('agent_token_usage')
    .select(['used_tokens', 'reserved_tokens'])
    .where('agent_id', '=', key.agentId)
    .where('period_start', '=', key.periodStart)
    .executeTakeFirst();
  return row ? { used: Number(row.used_tokens), reserved: Number(row.reserved_tokens) } : undefined;
}

/** Adds `amount` to what the month holds, in one statement, only if it still fits in `budget`. */
export async function reserveIfRoom(db: Db, key: UsageKey, amount: number, budget: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('agent_token_usage')
    .set((eb) => ({ reserved_tokens: eb('reserved_tokens', '+', amount), updated_at: now }))
    .where('agent_id', '=', key.agentId)
    .where('period_start', '=', key.periodStart)
    .where((eb) => eb(eb(eb.ref('used_tokens'), '+', eb.ref('reserved_tokens')), '+', amount), '<=', budget)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What a stretch of a run came to: `spent` counted as used, `released` no longer held; false when the month has no row. */
export async function settleUsage(
  db: Db,
  key: UsageKey,
  change: { spent: number; released: number },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('agent_token_usage')
    .set((eb) => ({
      used_tokens: eb('used_tokens', '+', change.spent),
      reserved_tokens: eb('reserved_tokens', '-', change.released),
      updated_at: now,
    }))
    .where('agent_id', '=', key.agentId)
    .where('period_start', '=', key.periodStart)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Adds to what a run holds (and from which month), in the transaction of the month's reservation. */
export async function addRunReservation(db: Db, runId: string, amount: number, periodStart: string): Promise<void> {
  await db
    .updateTable('agent_runs')
    .set((eb) => ({ reserved_tokens: eb('reserved_tokens', '+', amount), reserved_period: periodStart }))
    .where('id', '=', runId)
    .execute();
}

/** What a run holds now, read afresh (its reservations may have grown since its row was read). */
export async function findRunReservation(db: Db, runId: string) {
  return db.selectFrom('agent_runs').select(['reserved_tokens', 'reserved_period']).where('id', '=', runId).executeTakeFirst();
}

export async function clearRunReservation(db: Db, runId: string): Promise<void> {
  await db.updateTable('agent_runs').set({ reserved_tokens: 0, reserved_period: null }).where('id', '=', runId).execute();
}

/** What each of the agents used in the month starting `periodStart` (an agent with no row used nothing). */
export async function listMonthUsage(db: Db, organizationId: string, agentIds: readonly string[], periodStart: string) {
  return db
    .selectFrom('agent_token_usage')
    .select(['agent_id', 'used_tokens'])
    .where('organization_id', '=', organizationId)
    .where('period_start', '=', periodStart)
    .where(inJsonArray(db, 'agent_id', JSON.stringify(agentIds)))
    .execute();
}
