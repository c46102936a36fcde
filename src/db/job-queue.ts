import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectType,
  type SqlBool,
  sql,
  type Transaction,
  type UpdateObject,
} from 'kysely';
import type { Clock } from '../lib/clock.js';
import { forUpdateSkipLocked } from './dialect.js';

/**
 * The leased job queue every background worker claims its work from (the email outbox, webhook
 * deliveries, ticket-agent jobs, IMAP mailbox polls), over each queue's own table and columns.
 *
 * A claim marks rows as taken under a lease: a time until which the claimer vouches for them,
 * written in the row's lease column. That time is also the claim's token: every later write of
 * the claimer (a renewal, the result) is one UPDATE that holds only while the row still carries
 * it, so a process that lost its lease (it overran it, and another took the row over) writes
 * nothing. A row whose lease lapsed is the queue's to decide on: claimable again (`leaseLapsed`
 * in its `claimable`), or failed (`failLapsedLeases`), as the work allows. Candidates are locked
 * `for update skip locked` on PostgreSQL, so concurrent claimers pass over each other's rows;
 * SQLite has one writer, and the claim is one statement.
 *
 * Every queue's rows are keyed by a text column: `id`, unless the queue names its own `key`.
 */

/** Any schema: the app's `DB`, or a test's own. `D` is the schema, `T` the queue's table. */
type Column<D, T extends keyof D> = keyof D[T] & string;

/** Where a queue keeps its lease, and what else a claim changes. */
export interface LeaseColumns<D, T extends keyof D & string> {
  table: T;
  /** When the lease lapses (a timestamp: ISO text on SQLite); null or past when no one holds the row. */
  lease: Column<D, T>;
  /** A status column and the status a claimed row is in (`sending`, `running`); none: the lease alone says so. */
  state?: { column: Column<D, T>; claimed: string };
  /** Counted up by one on every claim, when the queue keeps a count. */
  attempts?: Column<D, T>;
  /** The row's key, when it is not `id` (Slack's events are keyed by their `event_id`). */
  key?: Column<D, T>;
}

export interface LeasedQueue<D, T extends keyof D & string, C extends Column<D, T>> extends LeaseColumns<D, T> {
  /** Which rows may be claimed now: checked when candidates are chosen and again on update. */
  claimable(eb: ExpressionBuilder<D, T>, now: string): Expression<SqlBool>;
  /** The order candidates are taken in; the id breaks ties only if listed. */
  order: readonly Column<D, T>[];
  /** What a claim answers of each row. */
  returning: readonly C[];
  /** More a claim sets (an `updated_at`). */
  onClaim?(now: string): UpdateObject<D, T>;
}

/** A claim's proof: the row, and the lease time it was claimed (or last renewed) under. */
export interface Lease {
  id: string;
  until: string;
}

/** What a guarded write changes: values, or a factory of them (for changes that read the row). */
export type LeasedChanges<D, T extends keyof D & string> =
  | UpdateObject<D, T>
  | ((eb: ExpressionBuilder<D, T>) => UpdateObject<D, T>);

// The queries are built over any table, so they are typed loosely inside and strictly at the edges.
// biome-ignore lint/suspicious/noExplicitAny: a table named by the queue
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: a table named by the queue
type AnyBuilder = ExpressionBuilder<any, any>;

/** The column names as plain strings, for queries built over any table. */
function erased<D, T extends keyof D & string>(columns: LeaseColumns<D, T>) {
  return columns as unknown as {
    table: string;
    lease: string;
    state?: { column: string; claimed: string };
    attempts?: string;
    key?: string;
  };
}

/** The column a queue's rows are keyed by. */
function keyOf<D, T extends keyof D & string>(columns: LeaseColumns<D, T>): string {
  return erased(columns).key ?? 'id';
}

/** `table.column`: references stay unambiguous inside a queue's subqueries. */
function qualified<D, T extends keyof D & string>(columns: LeaseColumns<D, T>, column: string): string {
  return `${columns.table}.${column}`;
}

/** What a claim answers of a row: the `returning` columns, as selected. */
export type ClaimedRow<D, T extends keyof D & string, C extends Column<D, T>> = { [K in C]: SelectType<D[T][K]> };

/**
 * Claims up to `limit` rows in one conditional UPDATE: each gets the lease `leaseUntil`, its claimed
 * state and one more attempt. The candidates are a materialized CTE, selected once per statement (a
 * plain `in (subquery)` may be re-run per row and claim more than `limit`), locked `for update skip
 * locked` on PostgreSQL; `claimable` is checked again on update.
 */
export async function claimLeased<D, T extends keyof D & string, C extends Column<D, T>>(
  db: Kysely<D>,
  queue: LeasedQueue<D, T, C>,
  claim: { now: string; leaseUntil: string; limit: number },
): Promise<ClaimedRow<D, T, C>[]> {
  const anyDb = db as unknown as AnyDb;
  const claimable = (eb: AnyBuilder) => queue.claimable(eb as unknown as ExpressionBuilder<D, T>, claim.now);
  const table: string = queue.table;
  const key = keyOf(queue);
  let candidates = anyDb
    .selectFrom(table)
    .select(`${qualified(queue, key)} as id`)
    .where(claimable);
  for (const column of queue.order) {
    candidates = candidates.orderBy(qualified(queue, column));
  }
  const rows = await anyDb
    .with(
      (cte) => cte('candidates').materialized(),
      () => forUpdateSkipLocked(anyDb, candidates.limit(claim.limit)),
    )
    .updateTable(table)
    .set((eb: AnyBuilder) => ({
      ...(queue.state ? { [queue.state.column]: queue.state.claimed } : {}),
      [queue.lease]: claim.leaseUntil,
      ...(queue.attempts ? { [queue.attempts]: eb(queue.attempts as string, '+', 1) } : {}),
      ...queue.onClaim?.(claim.now),
    }))
    .where(qualified(queue, key), 'in', (eb: AnyBuilder) => eb.selectFrom('candidates').select('candidates.id'))
    .where(claimable)
    .returning([...(queue.returning as readonly string[])])
    .execute();
  return rows as ClaimedRow<D, T, C>[];
}

/** A claimed row whose lease has lapsed (its claimer stopped, or overran), with fewer than `maxAttempts` if given. */
export function leaseLapsed<D, T extends keyof D & string>(
  eb: ExpressionBuilder<D, T>,
  columns: LeaseColumns<D, T>,
  now: string,
  maxAttempts?: number,
): Expression<SqlBool> {
  const builder = eb as unknown as AnyBuilder;
  const conditions = [builder(qualified(columns, columns.lease), '<=', now)];
  if (columns.state) {
    conditions.unshift(builder(qualified(columns, columns.state.column), '=', columns.state.claimed));
  }
  if (maxAttempts !== undefined && columns.attempts) {
    conditions.push(builder(qualified(columns, columns.attempts), '<', maxAttempts));
  }
  return builder.and(conditions);
}

/** No one holds the row: its lease is empty or lapsed (for a queue without a state column). */
export function notLeased<D, T extends keyof D & string>(
  eb: ExpressionBuilder<D, T>,
  columns: LeaseColumns<D, T>,
  now: string,
): Expression<SqlBool> {
  const builder = eb as unknown as AnyBuilder;
  const lease = qualified(columns, columns.lease);
  return builder.or([builder(lease, 'is', null), builder(lease, '<=', now)]);
}

/**
 * Ordering per key: no row of the same `key` that comes earlier by `position` is still unfinished
 * (in one of the `unfinished` states, and matching `alsoWhere`), so one key's rows go one at a time,
 * in order (one webhook endpoint's deliveries).
 */
export function noEarlierUnfinished<D, T extends keyof D & string>(
  eb: ExpressionBuilder<D, T>,
  columns: LeaseColumns<D, T>,
  order: {
    key: Column<D, T>;
    position: Column<D, T>;
    /** Orders rows of the same `position` (Slack's event times are whole seconds). */
    tieBreak?: Column<D, T>;
    unfinished: readonly string[];
    alsoWhere?: Record<string, unknown>;
  },
): Expression<SqlBool> {
  const builder = eb as unknown as AnyBuilder;
  const { table, state } = erased(columns);
  if (!state) {
    throw new Error(`ordering the ${table} queue per key needs its status column, to tell unfinished rows`);
  }
  const from: string = `${table} as earlier`;
  let earlier = builder
    .selectFrom(from)
    .select(sql`1`.as('one'))
    .whereRef(`earlier.${order.key}`, '=', qualified(columns, order.key))
    .where(`earlier.${state.column}`, 'in', [...order.unfinished])
    .where((inner: AnyBuilder) => {
      const before = inner(`earlier.${order.position}`, '<', inner.ref(qualified(columns, order.position)));
      if (!order.tieBreak) {
        return before;
      }
      return inner.or([
        before,
        inner.and([
          inner(`earlier.${order.position}`, '=', inner.ref(qualified(columns, order.position))),
          inner(`earlier.${order.tieBreak}`, '<', inner.ref(qualified(columns, order.tieBreak))),
        ]),
      ]);
    });
  for (const [column, value] of Object.entries(order.alsoWhere ?? {})) {
    earlier = earlier.where(`earlier.${column}`, '=', value);
  }
  return builder.not(builder.exists(earlier));
}

/**
 * Ends the rows whose lease lapsed on their last attempt (`attempts >= maxAttempts`: their claimer
 * stopped every time) with `changes` (a final status and why), rather than claim them again and
 * again; the lease is cleared. Answers how many.
 */
export async function failLapsedLeases<D, T extends keyof D & string>(
  db: Kysely<D> | Transaction<D>,
  columns: LeaseColumns<D, T>,
  lapse: { now: string; maxAttempts: number },
  changes: UpdateObject<D, T>,
): Promise<number> {
  const anyDb = db as unknown as AnyDb;
  const { table, lease, state, attempts } = erased(columns);
  let query = anyDb
    .updateTable(table)
    .set({ ...(changes as object), [lease]: null })
    .where(lease, '<=', lapse.now);
  if (state) {
    query = query.where(state.column, '=', state.claimed);
  }
  if (attempts) {
    query = query.where(attempts, '>=', lapse.maxAttempts);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Writes `changes` to the leased row only while the lease is still `lease.until` (and the row in
 * its claimed state): false when it was lost, and then nothing is written.
 */
export async function updateUnderLease<D, T extends keyof D & string>(
  db: Kysely<D> | Transaction<D>,
  columns: LeaseColumns<D, T>,
  lease: Lease,
  changes: LeasedChanges<D, T>,
): Promise<boolean> {
  const anyDb = db as unknown as AnyDb;
  const { table, lease: leaseColumn, state } = erased(columns);
  let query = anyDb
    .updateTable(table)
    // biome-ignore lint/suspicious/noExplicitAny: the queue's columns, checked at the edge
    .set(changes as any)
    .where(keyOf(columns), '=', lease.id)
    .where(leaseColumn, '=', lease.until);
  if (state) {
    query = query.where(state.column, '=', state.claimed);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

function withLease<D, T extends keyof D & string>(
  columns: LeaseColumns<D, T>,
  changes: LeasedChanges<D, T>,
  until: string | null,
): LeasedChanges<D, T> {
  return (eb) => ({ ...(typeof changes === 'function' ? changes(eb) : changes), [columns.lease]: until });
}

/** Records the result (`changes`) and releases the lease, only while the lease holds. */
export function finishUnderLease<D, T extends keyof D & string>(
  db: Kysely<D> | Transaction<D>,
  columns: LeaseColumns<D, T>,
  lease: Lease,
  changes: LeasedChanges<D, T>,
): Promise<boolean> {
  return updateUnderLease(db, columns, lease, withLease(columns, changes, null));
}

/** Moves the lease on to `until` (with `changes`, if any), only while it holds; false when it was lost. */
export function renewLease<D, T extends keyof D & string>(
  db: Kysely<D> | Transaction<D>,
  columns: LeaseColumns<D, T>,
  lease: Lease,
  until: string,
  changes: LeasedChanges<D, T> = {},
): Promise<boolean> {
  return updateUnderLease(db, columns, lease, withLease(columns, changes, until));
}

/**
 * Renews a lease every `everyMs` by `leaseMs` while long work goes on, so only a process that
 * stopped loses it; `onLost` when another process took the row over. `lease.until` follows the
 * renewals; `stop()` ends them and waits for one in flight. A renewal the database refused is not
 * taken for a lost lease: the work goes on, and `lease.until` moves on as if it had been renewed.
 */
export function keepLeaseRenewed<D, T extends keyof D & string>(
  db: Kysely<D>,
  columns: LeaseColumns<D, T>,
  claimed: Lease,
  renewal: { clock: Clock; leaseMs: number; everyMs: number; onLost(): void },
): { lease: Lease; stop(): Promise<void> } {
  const lease = { ...claimed };
  let renewing = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      const next = leaseUntil(renewal.clock.now(), renewal.leaseMs);
      const held = await renewLease(db, columns, lease, next).catch(() => true);
      if (held) {
        lease.until = next;
      } else {
        renewal.onLost();
      }
    });
  }, renewal.everyMs);
  timer.unref();
  return {
    lease,
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}

/** The lease a claim made at `now` takes for `leaseMs`. */
export function leaseUntil(now: Date, leaseMs: number): string {
  return new Date(now.getTime() + leaseMs).toISOString();
}

/** Exponential backoff: `baseDelayMs` after the 1st failure, doubling with each further one, capped at `maxDelayMs`. */
export function backoffMs(failedAttempts: number, baseDelayMs = 5_000, maxDelayMs = 3_600_000): number {
  return Math.min(baseDelayMs * 2 ** Math.max(0, failedAttempts - 1), maxDelayMs);
}
