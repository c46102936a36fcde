import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { Gauge } from 'prom-client';
import type { Clock } from '../lib/clock.js';
import type { Metrics } from '../lib/metrics.js';
import { poolUseOf } from './connect.js';
import type { DB } from './database.js';

/**
 * The gauges of `/metrics` read from the database at scrape time: how deep each background queue
 * is and how long its oldest due row has waited, and the PostgreSQL pool's use. One statement per
 * queue, on the index its worker claims by (`status` first, or the partial index of waiting
 * tickets), counting only rows not yet done. The queues are the job queue's users
 * (`db/job-queue.ts`) and the other due-time workers: the outbox, webhook deliveries, ticket-agent
 * jobs, chat replies to email, and tickets waiting for an agent (routing).
 */

interface QueueReading {
  /** Rows not yet done: waiting, retrying or being worked. */
  depth: number;
  /** The earliest due time among rows due now, or null when none is due. */
  oldestDue: string | null;
}

type Reader = (db: Kysely<DB>, now: string) => Promise<QueueReading>;

/** `min(column)` of the rows `due` holds for: the oldest due time, in one pass with the count. */
function oldestWhere<T extends keyof DB>(
  eb: ExpressionBuilder<DB, T>,
  due: ReturnType<ExpressionBuilder<DB, T>['and']>,
  column: string,
) {
  return eb.fn.min<string | null>(sql`case when ${due} then ${sql.ref(column)} end`).as('oldest_due');
}

async function reading(query: Promise<{ depth: number | string | bigint; oldest_due: string | null } | undefined>) {
  const row = await query;
  return { depth: Number(row?.depth ?? 0), oldestDue: row?.oldest_due ?? null };
}

const QUEUES: Record<string, Reader> = {
  outbox: (db, now) =>
    reading(
      db
        .selectFrom('email_outbox')
        .select((eb) => [
          eb.fn.countAll().as('depth'),
          oldestWhere(eb, eb.and([eb('status', '!=', 'sending'), eb('next_attempt_at', '<=', now)]), 'next_attempt_at'),
        ])
        .where('status', 'in', ['pending', 'failed', 'sending'])
        .executeTakeFirst(),
    ),
  webhook_deliveries: (db, now) =>
    reading(
      db
        .selectFrom('webhook_deliveries')
        .select((eb) => [
          eb.fn.countAll().as('depth'),
          oldestWhere(eb, eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]), 'next_attempt_at'),
        ])
        .where('status', 'in', ['pending', 'delivering'])
        .executeTakeFirst(),
    ),
  // A job is due as soon as it is made: its age is its creation's.
  ticket_agent_jobs: (db) =>
    reading(
      db
        .selectFrom('ticket_agent_jobs')
        .select((eb) => [eb.fn.countAll().as('depth'), oldestWhere(eb, eb('status', '=', 'pending'), 'created_at')])
        .where('status', 'in', ['pending', 'running', 'awaiting_approval'])
        .executeTakeFirst(),
    ),
  chat_reply_emails: (db, now) =>
    reading(
      db
        .selectFrom('chat_reply_emails')
        .select((eb) => [eb.fn.countAll().as('depth'), oldestWhere(eb, eb('due_at', '<=', now), 'due_at')])
        .where('status', '=', 'pending')
        .executeTakeFirst(),
    ),
  routing: (db) =>
    reading(
      db
        .selectFrom('tickets')
        .select((eb) => [eb.fn.countAll().as('depth'), eb.fn.min<string | null>('awaiting_assignment_since').as('oldest_due')])
        .where('awaiting_assignment_since', 'is not', null)
        .executeTakeFirst(),
    ),
};

export const QUEUE_NAMES = Object.keys(QUEUES);

/**
 * Adds the database's gauges to `metrics.registry`, once per registry: every listener of a process
 * shares them. A failed read (the database unreachable) drops the queue gauges from that scrape
 * rather than failing it: the process's own metrics still answer.
 */
export function registerDatabaseMetrics(
  metrics: Metrics,
  deps: { db: Kysely<DB>; clock: Clock; log?: { warn(object: unknown, message: string): void } },
): void {
  const { db, clock } = deps;
  const registers = [metrics.registry];
  // Both queue gauges are read by one pass over the queues: whichever is collected first starts
  // it, the other awaits the same readings.
  let inFlight: Promise<Map<string, QueueReading> | null> | undefined;
  const readQueues = () => {
    inFlight ??= readAll(db, clock.now()).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
  const readAll = async (database: Kysely<DB>, now: Date) => {
    try {
      const at = now.toISOString();
      const readings = await Promise.all(QUEUE_NAMES.map(async (name) => [name, await QUEUES[name]?.(database, at)] as const));
      return new Map(readings.filter((entry): entry is [string, QueueReading] => entry[1] !== undefined));
    } catch (error) {
      deps.log?.warn({ err: error }, 'queue metrics not read');
      return null;
    }
  };
  new Gauge({
    name: 'job_queue_depth',
    help: 'Rows of a background queue not yet done (waiting, retrying or being worked); the same in every process',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      for (const [queue, { depth }] of (await readQueues()) ?? []) {
        this.set({ queue }, depth);
      }
    },
  });
  new Gauge({
    name: 'job_queue_oldest_due_age_seconds',
    help: 'How long the oldest due row of a background queue has waited, in seconds (0: none due)',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      const now = clock.now().getTime();
      for (const [queue, { oldestDue }] of (await readQueues()) ?? []) {
        this.set({ queue }, oldestDue === null ? 0 : Math.max(0, (now - Date.parse(oldestDue)) / 1000));
      }
    },
  });
  if (poolUseOf(db)) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool of this process: connections open (total), idle, and queries waiting for one (waiting)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const use = poolUseOf(db);
        if (use) {
          this.set({ state: 'total' }, use.total);
          this.set({ state: 'idle' }, use.idle);
          this.set({ state: 'waiting' }, use.waiting);
        }
      },
    });
  }
}
