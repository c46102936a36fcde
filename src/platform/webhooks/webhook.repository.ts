import { type ExpressionBuilder, type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdateSkipLocked } from '../../db/dialect.js';
import {
  claimLeased,
  finishUnderLease,
  type LeaseColumns,
  type LeasedQueue,
  leaseLapsed,
  noEarlierUnfinished,
} from '../../db/job-queue.js';
import type { DeliveryStatus, WebhookDeliveryAttemptTable, WebhookDeliveryTable, WebhookTable } from './webhook.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** What the API shows of an endpoint: every column but the sealed secrets. */
const WEBHOOK_COLUMNS = [
  'id',
  'organization_id',
  'owner_user_id',
  'url',
  'event_types',
  'description',
  'enabled',
  'previous_secret_expires_at',
  'failing_since',
  'disabled_reason',
  'disabled_at',
  'created_at',
  'updated_at',
] as const;

export async function insertWebhook(db: Db, row: Insertable<WebhookTable>) {
  return db.insertInto('webhooks').values(row).returning(WEBHOOK_COLUMNS).executeTakeFirstOrThrow();
}

export async function findWebhook(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('webhooks')
    .select(WEBHOOK_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type WebhookRow = NonNullable<Awaited<ReturnType<typeof findWebhook>>>;

/** The organization's webhooks in creation order, `limit + 1` rows from after `afterId`. */
export async function listWebhooks(db: Db, organizationId: string, page: { afterId?: string; limit: number }) {
  let query = db.selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('organization_id', '=', organizationId);
  if (page.afterId !== undefined) {
    query = query.where('id', '>', page.afterId);
  }
  return query
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
}

/** Changes an endpoint of the organization in one statement; undefined when there is none. */
export async function updateWebhook(db: Db, organizationId: string, id: string, changes: Updateable<WebhookTable>) {
  return db
    .updateTable('webhooks')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirst();
}

/** Deletes an endpoint with its deliveries and their attempts (cascade); answers what it deleted. */
export async function deleteWebhook(db: Db, organizationId: string, id: string) {
  return db
    .deleteFrom('webhooks')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirst();
}

/**
 * A new secret, the current one becoming the previous one until `previousExpiresAt`, in one
 * UPDATE: of two concurrent rotations each moves the secret the other left, and no secret ever
 * signs without having been shown. A secret sealed for the row opens in either column.
 */
export async function rotateWebhookSecret(
  db: Db,
  organizationId: string,
  id: string,
  rotation: { sealedSecret: string; previousExpiresAt: string; now: string },
) {
  return db
    .updateTable('webhooks')
    .set((eb) => ({
      previous_secret_encrypted: eb.ref('secret_encrypted'),
      previous_secret_expires_at: rotation.previousExpiresAt,
      secret_encrypted: rotation.sealedSecret,
      updated_at: rotation.now,
    }))
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirst();
}

/**
 * The endpoint's owner is not disabled. A disabled owner's webhooks are paused: their cursor waits
 * and their queued deliveries are not due, until the owner is enabled again (or deleted: a deleted
 * owner's webhook receives what anyone may see).
 */
function ownerNotDisabled(eb: ExpressionBuilder<DB, 'webhooks'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('users')
        .select(sql`1`.as('one'))
        .whereRef('users.id', '=', 'webhooks.owner_user_id')
        .where('users.disabled_at', 'is not', null),
    ),
  );
}

/**
 * An enabled endpoint, its owner not disabled, whose organization's log has events it has not
 * dispatched yet, other than `exclude` (those done this pass), locked for the caller's transaction.
 * On PostgreSQL an endpoint another process is dispatching is skipped rather than waited for; the
 * sequence row is only read in a subquery, so event writers are never blocked.
 */
export async function lockWebhookBehindLog(trx: Transaction<DB>, exclude: readonly string[]) {
  let query = trx
    .selectFrom('webhooks')
    .select(['id', 'organization_id', 'owner_user_id', 'event_types', 'dispatched_seq'])
    .where('enabled', '=', true)
    .where(ownerNotDisabled)
    .where('dispatched_seq', '<', (eb) =>
      eb
        .selectFrom('event_sequences')
        .select('event_sequences.last_seq')
        .whereRef('event_sequences.organization_id', '=', 'webhooks.organization_id'),
    );
  if (exclude.length > 0) {
    query = query.where('id', 'not in', [...exclude]);
  }
  return forUpdateSkipLocked(trx, query.orderBy('id').limit(1)).executeTakeFirst();
}

export async function findOwner(db: Db, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'user_type', 'deleted_at']).where('id', '=', userId).executeTakeFirst();
}

/** Inserts the deliveries an endpoint does not have yet; an event already turned into one is skipped. */
export async function insertDeliveries(db: Db, rows: readonly Insertable<WebhookDeliveryTable>[]): Promise<number> {
  if (rows.length === 0) {
    return 0;
  }
  const result = await db
    .insertInto('webhook_deliveries')
    .values([...rows])
    .onConflict((oc) => oc.columns(['webhook_id', 'event_seq']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Whether the endpoint has a delivery in its order still going (pending or delivering, not a manual
 * one): new ones then wait behind it. Asked under the endpoint's row lock, which every change of
 * which delivery comes next holds.
 */
export async function hasDeliveryInProgress(db: Db, webhookId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', webhookId)
    .where('status', 'in', ['pending', 'delivering'])
    .where('manual', '=', false)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Makes the endpoint's next delivery in order due now (the one before it just finished): the
 * oldest event's delivery still waiting, under the endpoint's row lock.
 */
export async function promoteNextDelivery(db: Db, webhookId: string, now: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('webhook_deliveries as waiting')
        .select('waiting.id')
        .where('waiting.webhook_id', '=', webhookId)
        .where('waiting.status', '=', 'pending')
        .where('waiting.manual', '=', false)
        .where('waiting.next_attempt_at', 'is', null)
        .orderBy('waiting.event_seq')
        .limit(1),
    )
    .execute();
}

export async function advanceDispatchCursor(db: Db, webhookId: string, seq: number): Promise<void> {
  await db.updateTable('webhooks').set({ dispatched_seq: seq }).where('id', '=', webhookId).execute();
}

const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'event_seq',
  'event_type',
  'payload',
  'status',
  'manual',
  'attempts',
  'next_attempt_at',
  'last_status_code',
  'last_error',
  'delivered_at',
  'created_at',
  'updated_at',
] as const;

/** Deliveries as a leased queue: a claimed one is `delivering` under a lease in `locked_until`. */
const DELIVERY_LEASE: LeaseColumns<DB, 'webhook_deliveries'> = {
  table: 'webhook_deliveries',
  lease: 'locked_until',
  state: { column: 'status', claimed: 'delivering' },
  attempts: 'attempts',
};

/**
 * Due: pending and its time has come, or delivering under a lease that ran out. In order: only the
 * endpoint's oldest unfinished delivery has a time (the ones behind it wait with none, and get one
 * when it finishes: `promoteNextDelivery`), so the scan of due rows never reads a backlog; the
 * NOT EXISTS says the same again, for safety. Manual ones (a retry, a test) go out of order. Only
 * deliveries of enabled endpoints whose owner is not disabled are due. Per endpoint at most one
 * delivery in order is due at a time, so a batch never holds two of one endpoint's events.
 */
const DELIVERY_QUEUE: LeasedQueue<DB, 'webhook_deliveries', (typeof DELIVERY_COLUMNS)[number]> = {
  ...DELIVERY_LEASE,
  claimable: (eb, now) =>
    eb.and([
      eb.or([
        eb.and([eb('webhook_deliveries.status', '=', 'pending'), eb('webhook_deliveries.next_attempt_at', '<=', now)]),
        leaseLapsed(eb, DELIVERY_LEASE, now),
      ]),
      eb.exists(
        eb
          .selectFrom('webhooks')
          .select(sql`1`.as('one'))
          .whereRef('webhooks.id', '=', 'webhook_deliveries.webhook_id')
          .where('webhooks.enabled', '=', true)
          .where(ownerNotDisabled),
      ),
      eb.or([
        eb('webhook_deliveries.manual', '=', true),
        noEarlierUnfinished(eb, DELIVERY_LEASE, {
          key: 'webhook_id',
          position: 'event_seq',
          unfinished: ['pending', 'delivering'],
          alsoWhere: { manual: false },
        }),
      ]),
    ]),
  order: ['next_attempt_at', 'id'],
  returning: DELIVERY_COLUMNS,
  onClaim: (now) => ({ updated_at: now }),
};

/**
 * Claims up to `limit` due deliveries (`claimLeased`): they become `delivering` under a lease until
 * `lockedUntil`, and the attempt is counted; concurrent workers never claim the same delivery.
 */
export async function claimDueDeliveries(db: Kysely<DB>, claim: { now: string; lockedUntil: string; limit: number }) {
  return claimLeased(db, DELIVERY_QUEUE, { now: claim.now, leaseUntil: claim.lockedUntil, limit: claim.limit });
}

export type DeliveryRow = Awaited<ReturnType<typeof claimDueDeliveries>>[number];

/** Where and how to send a claimed delivery: the endpoint's URL and sealed secrets, as they are now. */
export async function findSendTargets(db: Db, webhookIds: readonly string[]) {
  if (webhookIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('webhooks')
    .select(['id', 'organization_id', 'url', 'secret_encrypted', 'previous_secret_encrypted', 'previous_secret_expires_at'])
    .where('id', 'in', [...new Set(webhookIds)])
    .execute();
}

export type SendTargetRow = Awaited<ReturnType<typeof findSendTargets>>[number];

/** A test delivery, inserted already claimed by the request that sends it. */
export async function insertClaimedDelivery(db: Db, row: Insertable<WebhookDeliveryTable>) {
  return db.insertInto('webhook_deliveries').values(row).returning(DELIVERY_COLUMNS).executeTakeFirstOrThrow();
}

/**
 * Records the outcome of an attempt, only while the claim is still ours (`delivering` with our
 * lease), so a worker that overran its lease cannot overwrite the outcome of the one that took over.
 */
export async function finishDelivery(
  db: Db,
  id: string,
  lockedUntil: string,
  outcome: {
    status: Extract<DeliveryStatus, 'pending' | 'delivered' | 'failed'>;
    at: string;
    nextAttemptAt: string | null;
    statusCode: number | null;
    error: string | null;
  },
): Promise<boolean> {
  return finishUnderLease(
    db,
    DELIVERY_LEASE,
    { id, until: lockedUntil },
    {
      status: outcome.status,
      next_attempt_at: outcome.nextAttemptAt,
      last_status_code: outcome.statusCode,
      last_error: outcome.error,
      updated_at: outcome.at,
      // A finished delivery is back in no one's way; a manual one that failed is not retried.
      ...(outcome.status === 'pending' ? {} : { manual: false }),
      ...(outcome.status === 'delivered' ? { delivered_at: outcome.at } : {}),
    },
  );
}

export async function insertAttempt(db: Db, row: WebhookDeliveryAttemptTable): Promise<void> {
  await db.insertInto('webhook_delivery_attempts').values(row).execute();
}

/** How many attempts of the delivery were recorded. */
export async function countAttempts(db: Db, deliveryId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_delivery_attempts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A success: the endpoint is no longer failing. */
export async function clearFailingSince(db: Db, webhookId: string, now: string): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ failing_since: null, updated_at: now })
    .where('id', '=', webhookId)
    .where('failing_since', 'is not', null)
    .execute();
}

/** A failure: the endpoint is failing since this one, unless it already was. */
export async function markFailingSince(db: Db, webhookId: string, since: string): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ failing_since: since, updated_at: since })
    .where('id', '=', webhookId)
    .where('failing_since', 'is', null)
    .execute();
}

/**
 * Disables the endpoint if it is enabled and has been failing since `cutoff` or earlier; answers it
 * when this call disabled it. One conditional UPDATE: of two workers failing at once, one disables.
 */
export async function disableFailingWebhook(db: Db, webhookId: string, cutoff: string, now: string) {
  return db
    .updateTable('webhooks')
    .set({ enabled: false, disabled_reason: 'failing', disabled_at: now, updated_at: now })
    .where('id', '=', webhookId)
    .where('enabled', '=', true)
    .where('failing_since', '<=', cutoff)
    .returning(['id', 'organization_id', 'owner_user_id', 'url', 'failing_since'])
    .executeTakeFirst();
}

export async function findDelivery(db: Db, webhookId: string, id: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Finished deliveries go again, once, at once and out of the endpoint's order. */
export const REDELIVERABLE_STATUSES = ['delivered', 'failed'] as const satisfies readonly DeliveryStatus[];

/**
 * Queues one more attempt of a finished delivery, due now. One conditional UPDATE: of two
 * concurrent retries only one changes the row; the other finds none to return.
 */
export async function requeueDelivery(db: Db, webhookId: string, id: string, now: string) {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', manual: true, next_attempt_at: now, locked_until: null, updated_at: now })
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .where('status', 'in', REDELIVERABLE_STATUSES)
    .returning(DELIVERY_COLUMNS)
    .executeTakeFirst();
}

/** An endpoint's deliveries, newest first, `limit + 1` rows from before `beforeId`. */
export async function listDeliveries(
  db: Db,
  webhookId: string,
  filter: { status?: DeliveryStatus; beforeId?: string; limit: number },
) {
  let query = db.selectFrom('webhook_deliveries').select(DELIVERY_COLUMNS).where('webhook_id', '=', webhookId);
  if (filter.status !== undefined) {
    query = query.where('status', '=', filter.status);
  }
  if (filter.beforeId !== undefined) {
    query = query.where('id', '<', filter.beforeId);
  }
  return query
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
}

/** The attempts of these deliveries, oldest first. */
export async function listAttempts(db: Db, deliveryIds: readonly string[]) {
  if (deliveryIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', [...deliveryIds])
    .orderBy('id')
    .execute();
}

export type AttemptRow = Awaited<ReturnType<typeof listAttempts>>[number];

/**
 * Deletes up to `batchSize` finished deliveries made before `beforeId` (a ULID of the cutoff time,
 * so the primary key finds them), with their attempts. On PostgreSQL rows another process is
 * deleting are skipped.
 */
export async function deleteFinishedDeliveriesBefore(db: Kysely<DB>, beforeId: string, batchSize: number): Promise<number> {
  const doomed = forUpdateSkipLocked(
    db,
    db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('id', '<', beforeId)
      .where('status', 'in', REDELIVERABLE_STATUSES)
      .orderBy('id')
      .limit(batchSize),
  );
  const result = await db.deleteFrom('webhook_deliveries').where('id', 'in', doomed).executeTakeFirst();
  return Number(result.numDeletedRows);
}
