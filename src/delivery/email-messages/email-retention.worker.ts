import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { pruneEmailOriginals } from './email-retention.repository.js';

export interface EmailRetentionWorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** `EMAIL_RETENTION_DAYS`, set: the worker runs only then. */
  config: { EMAIL_RETENTION_DAYS: number };
  log: Pick<FastifyBaseLogger, 'error'>;
}

export interface EmailRetentionWorker {
  start(): void;
  stop(): Promise<void>;
  /** One batch: deletes up to `batchSize` originals past the retention; resolves to how many. */
  runOnce(): Promise<number>;
}

const DAY_MS = 86_400_000;

/**
 * With `EMAIL_RETENTION_DAYS`, deletes the originals (`.eml`) of emails older than that whose
 * ticket was closed (or deleted) at least as long ago, a bounded batch per statement (a full batch
 * is followed at once by the next). Every process runs one: batches skip rows another process is
 * pruning, and pruning a row twice changes nothing.
 */
export function createEmailRetentionWorker(
  deps: EmailRetentionWorkerDeps,
  options: { batchSize?: number; intervalMs?: number } = {},
): EmailRetentionWorker {
  const batchSize = options.batchSize ?? 200;
  const runOnce = () => {
    const cutoff = new Date(deps.clock.now().getTime() - deps.config.EMAIL_RETENTION_DAYS * DAY_MS).toISOString();
    return pruneEmailOriginals(deps.db, cutoff, batchSize);
  };
  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: options.intervalMs ?? 600_000,
    batchSize,
    onError: (error) => deps.log.error({ err: error }, 'email retention pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
