import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { deleteEventsBefore } from './event.repository.js';

export interface EventRetentionWorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<Config, 'EVENT_RETENTION_DAYS'>;
  log: Pick<FastifyBaseLogger, 'error'>;
}

export interface EventRetentionWorker {
  start(): void;
  stop(): Promise<void>;
  /** One batch: deletes up to `batchSize` events older than the retention; resolves to how many. */
  runOnce(): Promise<number>;
}

const DAY_MS = 86_400_000;

/**
 * Deletes events older than `EVENT_RETENTION_DAYS`, oldest first, a bounded batch per statement (a
 * full batch is followed at once by the next, so a backlog goes without one long lock). Every
 * process runs one: batches skip rows another process is deleting (PostgreSQL), and deleting a row
 * twice deletes nothing. Event numbers are not reused: the sequence lives in `event_sequences`.
 */
export function createEventRetentionWorker(
  deps: EventRetentionWorkerDeps,
  options: { batchSize?: number; intervalMs?: number } = {},
): EventRetentionWorker {
  const batchSize = options.batchSize ?? 1000;
  const runOnce = () => {
    const cutoff = new Date(deps.clock.now().getTime() - deps.config.EVENT_RETENTION_DAYS * DAY_MS).toISOString();
    return deleteEventsBefore(deps.db, cutoff, batchSize);
  };
  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: options.intervalMs ?? 60_000,
    batchSize,
    onError: (error) => deps.log.error({ err: error }, 'event retention pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
