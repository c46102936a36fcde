import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { forUpdateSkipLocked, writesInOneStatement } from '../../db/dialect.js';
import { type TurnBatches, turnBatches } from '../../lib/turn-batches.js';
import type { EventType } from '../../shared/event-types.js';
import type { EventTable } from './event.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Takes the next `count` numbers of the organization's log and answers the first. The upsert locks
 * the organization's sequence row until the transaction ends (SQLite has one writer anyway), so
 * another writer of the same organization waits here and takes numbers after these: numbers commit
 * in order.
 */
const takeEventSeqsStatement = prepareQuery<{ organizationId: string; count: number }, { last_seq: number }>((db: Db, param) =>
  db
    .insertInto('event_sequences')
    .values({ organization_id: param('organizationId'), last_seq: param('count') })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet((eb) => ({ last_seq: eb('event_sequences.last_seq', '+', param('count')) })),
    )
    .returning('last_seq'),
);

export async function takeEventSeqs(trx: Transaction<DB>, organizationId: string, count: number): Promise<number> {
  const { rows } = await takeEventSeqsStatement.execute(trx, { organizationId, count });
  const row = rows[0];
  if (!row) {
    throw new Error('the event sequence upsert returned no row');
  }
  return Number(row.last_seq) - count + 1;
}

const EVENT_COLUMNS = [
  'organization_id',
  'seq',
  'type',
  'occurred_at',
  'actor_type',
  'actor_id',
  'actor_name',
  'data',
  'changes',
  'ticket_id',
  'team_id',
  'ticket_is_private',
  'is_internal',
  'private_to_user_id',
] as const satisfies readonly (keyof EventTable)[];

const insertEventStatement = prepareQuery<EventTable, never>((db: Db, param) =>
  db
    .insertInto('events')
    .values(Object.fromEntries(EVENT_COLUMNS.map((column) => [column, param(column)])) as unknown as EventTable),
);

/** The events of a change, numbered already, in one INSERT. */
export async function insertEvents(trx: Transaction<DB>, rows: readonly EventTable[]): Promise<void> {
  await trx
    .insertInto('events')
    .values([...rows])
    .execute();
}

/** An event as its writer knows it: everything but its number, which the write takes. */
export type UnnumberedEvent = Omit<EventTable, 'seq'>;

const UNNUMBERED_COLUMNS = EVENT_COLUMNS.filter((column) => column !== 'seq');

/** PostgreSQL types of the event columns, for parameters that reach them through a SELECT list. */
const POSTGRES_COLUMN_TYPES: Record<(typeof UNNUMBERED_COLUMNS)[number], string> = {
  organization_id: 'text',
  type: 'text',
  occurred_at: 'timestamptz',
  actor_type: 'text',
  actor_id: 'text',
  actor_name: 'text',
  data: 'jsonb',
  changes: 'jsonb',
  ticket_id: 'text',
  team_id: 'text',
  ticket_is_private: 'boolean',
  is_internal: 'boolean',
  private_to_user_id: 'text',
};

/**
 * PostgreSQL: the sequence upsert and the event insert as one statement, after `change` (an
 * INSERT … RETURNING of at most one row) when there is one, whose parameters come first. The event
 * is written only when `change` wrote its row, and the statement answers `change`'s rows. One
 * round trip, and autocommitted when it runs alone: the organization's sequence row is locked for
 * the statement's duration rather than across the round trips of a transaction.
 */
function postgresNumberedInsert(change: string | null, firstParameter: number): string {
  const parameter = (column: (typeof UNNUMBERED_COLUMNS)[number]) =>
    `cast($${firstParameter + UNNUMBERED_COLUMNS.indexOf(column)} as ${POSTGRES_COLUMN_TYPES[column]})`;
  const values = UNNUMBERED_COLUMNS.map(parameter);
  const sequence =
    'insert into event_sequences (organization_id, last_seq) ' +
    `select ${parameter('organization_id')}, 1${change === null ? '' : ' from written'} ` +
    'on conflict (organization_id) do update set last_seq = event_sequences.last_seq + 1 returning last_seq';
  const event = `insert into events (${UNNUMBERED_COLUMNS.join(', ')}, seq) select ${values.join(', ')}, last_seq from numbered`;
  return change === null
    ? `with numbered as (${sequence}) ${event}`
    : `with written as (${change}), numbered as (${sequence}), event as (${event}) select * from written`;
}

const POSTGRES_EVENT_INSERT = postgresNumberedInsert(null, 1);
const postgresChangeInserts = new Map<string, string>();

function parametersOf(event: UnnumberedEvent): unknown[] {
  return UNNUMBERED_COLUMNS.map((column) => event[column]);
}

/** One event of a change, numbered after the organization's last (see `takeEventSeqs`). */
export async function insertNumberedEvent(trx: Transaction<DB>, event: UnnumberedEvent): Promise<void> {
  if (writesInOneStatement(trx)) {
    await trx.executeQuery(CompiledQuery.raw(POSTGRES_EVENT_INSERT, parametersOf(event)));
    return;
  }
  const seq = await takeEventSeqs(trx, event.organization_id, 1);
  await insertEventStatement.execute(trx, { ...event, seq });
}

/**
 * PostgreSQL: several changes of one organization, each an INSERT … RETURNING of at most one row
 * with the same SQL, and the event of each that wrote its row, as one statement. Each change is a
 * WITH clause of its own, its parameters after the previous one's; the events' parameters follow,
 * in the changes' order. The sequence row is taken once for all of them, and the events numbered in
 * the changes' order. Answers the rows written, each with the index of its change (`batch_index`).
 */
function postgresBatchedNumberedInsert(
  change: string,
  parametersPerChange: number,
  count: number,
  attachedKinds: readonly AttachedKind<unknown>[] = [],
): string {
  const indexes = Array.from({ length: count }, (_, index) => index);
  // Kysely writes every value of a change as a parameter, so `$n` in its SQL is only ever one.
  const clauses = indexes.map(
    (index) => `c${index} as (${change.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + index * parametersPerChange}`)})`,
  );
  const written = indexes.map((index) => `select ${index} as batch_index, c${index}.* from c${index}`).join(' union all ');
  const eventParameter = (index: number, column: (typeof UNNUMBERED_COLUMNS)[number]) =>
    `cast($${count * parametersPerChange + index * UNNUMBERED_COLUMNS.length + UNNUMBERED_COLUMNS.indexOf(column) + 1} as ${POSTGRES_COLUMN_TYPES[column]})`;
  const events = indexes.map(
    (index) => `(${index}, ${UNNUMBERED_COLUMNS.map((column) => eventParameter(index, column)).join(', ')})`,
  );
  const sequence =
    `insert into event_sequences (organization_id, last_seq) select ${eventParameter(0, 'organization_id')}, count(*) from written ` +
    'having count(*) > 0 on conflict (organization_id) do update set last_seq = event_sequences.last_seq + excluded.last_seq ' +
    'returning last_seq';
  const event =
    `insert into events (${UNNUMBERED_COLUMNS.join(', ')}, seq) ` +
    `select ${UNNUMBERED_COLUMNS.map((column) => `e.${column}`).join(', ')}, ` +
    'numbered.last_seq - (select count(*) from written) + row_number() over (order by e.batch_index) ' +
    `from (values ${events.join(', ')}) as e(batch_index, ${UNNUMBERED_COLUMNS.join(', ')}) ` +
    'join written using (batch_index) cross join numbered';
  // The attached kinds' parameters follow the events', each kind's in the order of `attachedKinds`.
  let next = count * (parametersPerChange + UNNUMBERED_COLUMNS.length) + 1;
  const attached = attachedKinds.map((kind) => {
    const text = kind.postgresClauses(next);
    next += kind.parameterCount;
    return text;
  });
  const tail = attached.map((text) => `, ${text}`).join('');
  return `with ${clauses.join(', ')}, written as (${written}), numbered as (${sequence}), event as (${event})${tail} select * from written`;
}

/**
 * Writes that count only when a numbered write wrote its row, in the same statement or transaction
 * (a reply's counts in the reports): both or neither, and, on PostgreSQL, nothing held across a
 * round trip. A kind is rendered once per batch for every write of it there.
 */
export interface AttachedKind<Rows> {
  /** Part of the cache key of the statements that carry it. */
  name: string;
  /**
   * PostgreSQL: WITH clauses (comma-separated, no leading comma) that read `written` (the changes
   * that wrote their row, with their `batch_index`) and write only after joining `numbered` (the
   * organization's sequence row, so that they lock after it, as every writer of these rows does),
   * with parameters from `$first` on.
   */
  postgresClauses(first: number): string;
  parameterCount: number;
  /** The kind's parameters for a batch: the rows of each write that carries it, by batch index. */
  postgresParameters(batch: readonly { batchIndex: number; rows: Rows }[]): unknown[];
  /** SQLite: the writes, in the change's transaction after its event. */
  write(trx: Transaction<DB>, rows: Rows): Promise<void>;
}

export interface AttachedWrites<Rows = unknown> {
  kind: AttachedKind<Rows>;
  rows: Rows;
}

const postgresBatchedInserts = new Map<string, string>();

interface NumberedWrite {
  change: CompiledQuery<unknown>;
  event: UnnumberedEvent;
  attached?: AttachedWrites;
}

/** The change and event alone: one statement, autocommitted. */
async function writeOne(db: Kysely<DB>, write: NumberedWrite): Promise<unknown> {
  const { change, event } = write;
  if (write.attached) {
    return (await writeBatch(db, [write]))[0];
  }
  let text = postgresChangeInserts.get(change.sql);
  if (text === undefined) {
    text = postgresNumberedInsert(change.sql, change.parameters.length + 1);
    postgresChangeInserts.set(change.sql, text);
  }
  const { rows } = await db.executeQuery(CompiledQuery.raw(text, [...change.parameters, ...parametersOf(event)]));
  return rows[0];
}

/** Writes of the same SQL as one statement; should it fail, each alone, so a failure is its own. */
async function writeTogether(db: Kysely<DB>, writes: NumberedWrite[]): Promise<unknown[]> {
  const [first] = writes;
  if (!first || writes.length === 1) {
    return [await writeOne(db, first as NumberedWrite).catch((error: unknown) => normalizedError(error))];
  }
  try {
    return await writeBatch(db, writes);
  } catch {
    const outcomes: unknown[] = [];
    for (const write of writes) {
      outcomes.push(await writeOne(db, write).catch((error: unknown) => normalizedError(error)));
    }
    return outcomes;
  }
}

/** Writes of the same SQL as one statement, with what they carry attached; throws if it fails. */
async function writeBatch(db: Kysely<DB>, writes: NumberedWrite[]): Promise<unknown[]> {
  const first = writes[0] as NumberedWrite;
  const kinds = [...new Set(writes.flatMap((write) => (write.attached ? [write.attached.kind] : [])))];
  const key = `${writes.length}:${kinds.map((kind) => kind.name).join(',')}:${first.change.sql}`;
  let text = postgresBatchedInserts.get(key);
  if (text === undefined) {
    text = postgresBatchedNumberedInsert(first.change.sql, first.change.parameters.length, writes.length, kinds);
    postgresBatchedInserts.set(key, text);
  }
  const parameters = [
    ...writes.flatMap((write) => write.change.parameters),
    ...writes.flatMap((write) => parametersOf(write.event)),
    ...kinds.flatMap((kind) =>
      kind.postgresParameters(
        writes.flatMap((write, batchIndex) => (write.attached?.kind === kind ? [{ batchIndex, rows: write.attached.rows }] : [])),
      ),
    ),
  ];
  const { rows } = await db.executeQuery<{ batch_index: number }>(CompiledQuery.raw(text, parameters));
  // Each row keeps its `batch_index` (a change may answer wide rows: copying them to drop it costs more than it is worth).
  const byIndex = new Map(rows.map((row) => [Number(row.batch_index), row]));
  return writes.map((_, index) => byIndex.get(index));
}

const normalizedError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * PostgreSQL: a process's numbered writes of one organization take turns (`lib/turn-batches.ts`).
 * Each holds the organization's sequence row from its UPDATE to its commit, so ten writers at
 * once queued on the row one by one, each waiting out the others' commits (2,100 comments a second
 * where the same inserts without the row took 7,300 in pgbench, and twice the database's CPU a comment). Now
 * one statement at a time takes the row, for every write that queued behind the last.
 */
const numberedWriteTurns = new WeakMap<Kysely<DB>, TurnBatches<NumberedWrite, unknown>>();

const MAX_WRITES_A_STATEMENT = 32;

function turnsOf(db: Kysely<DB>): TurnBatches<NumberedWrite, unknown> {
  let turns = numberedWriteTurns.get(db);
  if (!turns) {
    turns = turnBatches<NumberedWrite, unknown>({
      maxBatch: MAX_WRITES_A_STATEMENT,
      run: async (_organizationId, writes) => {
        // Writes of one SQL go together; another change's writes go in a statement of their own.
        const outcomes = new Map<NumberedWrite, unknown>();
        for (const sql of new Set(writes.map((write) => write.change.sql))) {
          const group = writes.filter((write) => write.change.sql === sql);
          const results = await writeTogether(db, group);
          for (const [index, write] of group.entries()) {
            outcomes.set(write, results[index]);
          }
        }
        return writes.map((write) => outcomes.get(write));
      },
    });
    numberedWriteTurns.set(db, turns);
  }
  return turns;
}

/**
 * Runs `change`, an INSERT … RETURNING of at most one row, and records `event` when it wrote its
 * row: both or neither. On PostgreSQL one statement, with no transaction held open across round
 * trips (the hottest write, a plain comment, is two round trips in all), taking turns with the
 * process's other numbered writes of the organization (see `numberedWriteTurns`); on SQLite a
 * transaction. Answers `change`'s row, or undefined when it wrote none (an ON CONFLICT DO NOTHING
 * that met a conflict).
 */
export async function insertWithEvent<Row>(
  db: Kysely<DB>,
  change: CompiledQuery<Row>,
  event: UnnumberedEvent,
  /** Written too when `change` wrote its row (see `AttachedKind`). */
  attached?: AttachedWrites,
): Promise<Row | undefined> {
  if (writesInOneStatement(db)) {
    return (await turnsOf(db).submit(event.organization_id, { change, event, attached })) as Row | undefined;
  }
  return db.transaction().execute(async (trx) => {
    const [written] = (await trx.executeQuery(change)).rows;
    if (written !== undefined) {
      await insertNumberedEvent(trx, event);
      await attached?.kind.write(trx, attached.rows);
    }
    return written;
  });
}

export interface EventFilter {
  types?: readonly EventType[];
  occurredAfter?: string;
  occurredBefore?: string;
  /** Keyset: events after (oldest first) or before (newest first) this number. */
  afterSeq?: number;
  order: 'asc' | 'desc';
  limit: number;
}

/** A page of the organization's events in `seq` order, on the primary key or `(organization_id, type, seq)`. */
export async function listEvents(db: Db, organizationId: string, filter: EventFilter) {
  let query = db.selectFrom('events').selectAll().where('organization_id', '=', organizationId);
  if (filter.types && filter.types.length > 0) {
    query = query.where('type', 'in', [...filter.types]);
  }
  if (filter.occurredAfter !== undefined) {
    query = query.where('occurred_at', '>', filter.occurredAfter);
  }
  if (filter.occurredBefore !== undefined) {
    query = query.where('occurred_at', '<', filter.occurredBefore);
  }
  if (filter.afterSeq !== undefined) {
    query = query.where('seq', filter.order === 'asc' ? '>' : '<', filter.afterSeq);
  }
  return query
    .orderBy('seq', filter.order)
    .limit(filter.limit + 1)
    .execute();
}

export type EventRow = Awaited<ReturnType<typeof listEvents>>[number];

/**
 * Deletes up to `batchSize` events that occurred before `cutoff`, oldest first. On PostgreSQL rows
 * another process is deleting are skipped rather than waited for, so several processes prune
 * side by side.
 */
export async function deleteEventsBefore(db: Kysely<DB>, cutoff: string, batchSize: number): Promise<number> {
  const doomed = forUpdateSkipLocked(
    db,
    db
      .selectFrom('events')
      .select(['organization_id', 'seq'])
      .where('occurred_at', '<', cutoff)
      .orderBy('occurred_at')
      .limit(batchSize),
  );
  const result = await db
    .deleteFrom('events')
    .where(({ eb, refTuple }) => eb(refTuple('organization_id', 'seq'), 'in', doomed.$asTuple('organization_id', 'seq')))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The last number of every organization's log, as committed (a number is only seen once its events are). */
export async function listEventSequences(db: Db): Promise<{ organization_id: string; last_seq: number }[]> {
  const rows = await db.selectFrom('event_sequences').select(['organization_id', 'last_seq']).execute();
  return rows.map((row) => ({ organization_id: row.organization_id, last_seq: Number(row.last_seq) }));
}

/** The last number of the organization's log; 0 before its first event. */
export async function findLastEventSeq(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('event_sequences')
    .select('last_seq')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ? Number(row.last_seq) : 0;
}

/** The number of the organization's oldest event still kept, or null when none is (on the primary key). */
export async function findOldestEventSeq(db: Db, organizationId: string): Promise<number | null> {
  const row = await db
    .selectFrom('events')
    .select('seq')
    .where('organization_id', '=', organizationId)
    .orderBy('seq', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.seq) : null;
}
