import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';

type Db = Kysely<DB> | Transaction<DB>;

/*
 * The SLA worker's statements. The conditions on `status` are written as literals, exactly as the
 * partial indexes `ticket_sla_targets_due` and `ticket_sla_targets_warn` state them, so that SQLite
 * (which matches an index's WHERE term by term) uses them as PostgreSQL does.
 */
const BREACHABLE = sql<boolean>`status in ('active', 'breached')`;
const RUNNING = sql<boolean>`status = 'active'`;

/** What an alert says of its target, as each claim answers it. */
const ALERT_COLUMNS = ['id', 'organization_id', 'ticket_id', 'policy_id', 'metric', 'due_at', 'breached_at', 'warn_at'] as const;

/** Targets past their due time whose breach nobody has announced, oldest first. */
export async function listDueBreaches(db: Db, now: string, limit: number) {
  return db
    .selectFrom('ticket_sla_targets')
    .select(['id', 'organization_id', 'ticket_id'])
    .where('breach_notified_at', 'is', null)
    .where(BREACHABLE)
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

/** Running targets past their warning time, not warned, oldest first. */
export async function listDueWarnings(db: Db, now: string, limit: number) {
  return db
    .selectFrom('ticket_sla_targets')
    .select(['id', 'organization_id', 'ticket_id'])
    .where('warned_at', 'is', null)
    .where(RUNNING)
    .where('warn_at', '<=', now)
    .orderBy('warn_at')
    .limit(limit)
    .execute();
}

/** The oldest due time the worker has still to act on (a breach or a warning), or null. */
export async function findOldestPending(db: Db, now: string): Promise<string | null> {
  const breach = await db
    .selectFrom('ticket_sla_targets')
    .select('due_at as at')
    .where('breach_notified_at', 'is', null)
    .where(BREACHABLE)
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(1)
    .executeTakeFirst();
  const warning = await db
    .selectFrom('ticket_sla_targets')
    .select('warn_at as at')
    .where('warned_at', 'is', null)
    .where(RUNNING)
    .where('warn_at', '<=', now)
    .orderBy('warn_at')
    .limit(1)
    .executeTakeFirst();
  const times = [breach?.at, warning?.at].filter((at): at is string => typeof at === 'string');
  return times.length === 0 ? null : times.reduce((a, b) => (new Date(a) < new Date(b) ? a : b));
}

/**
 * A running target past its due time becomes breached (at its due time), unless a ticket change
 * did it first; answers the row when this call did it. Under the row's lock, so a change that
 * paused the target or moved its due time meanwhile is seen (PostgreSQL checks the WHERE again).
 */
export async function markBreached(trx: Transaction<DB>, id: string, now: string) {
  return trx
    .updateTable('ticket_sla_targets')
    .set((eb) => ({ status: 'breached', breached_at: eb.ref('due_at'), updated_at: now }))
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('breach_notified_at', 'is', null)
    .where('due_at', '<=', now)
    .returning(ALERT_COLUMNS)
    .executeTakeFirst();
}

/** Takes the announcement of a breach: answers the row to whoever sets `breach_notified_at`, once. */
export async function claimBreachNotice(trx: Transaction<DB>, id: string, now: string) {
  return trx
    .updateTable('ticket_sla_targets')
    .set({ breach_notified_at: now })
    .where('id', '=', id)
    .where('breach_notified_at', 'is', null)
    .where('breached_at', 'is not', null)
    .returning(ALERT_COLUMNS)
    .executeTakeFirst();
}

/** Takes the warning of a running target whose warning time passed: answers the row once. */
export async function claimWarning(trx: Transaction<DB>, id: string, now: string) {
  return trx
    .updateTable('ticket_sla_targets')
    .set({ warned_at: now })
    .where('id', '=', id)
    .where('warned_at', 'is', null)
    .where('status', '=', 'active')
    .where('warn_at', '<=', now)
    .returning(ALERT_COLUMNS)
    .executeTakeFirst();
}

export type AlertedTarget = NonNullable<Awaited<ReturnType<typeof claimWarning>>>;

/** The ticket an alert is about (for the event's visibility), and the policy's name, if both still exist. */
export async function findAlertContext(db: Db, target: Pick<AlertedTarget, 'organization_id' | 'ticket_id' | 'policy_id'>) {
  const ticket = await db
    .selectFrom('tickets')
    .select(['id', 'team_id', 'is_private'])
    .where('organization_id', '=', target.organization_id)
    .where('id', '=', target.ticket_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const policy = await db
    .selectFrom('sla_policies')
    .select('name')
    .where('organization_id', '=', target.organization_id)
    .where('id', '=', target.policy_id)
    .executeTakeFirst();
  return { ticket, policyName: policy?.name ?? null };
}
