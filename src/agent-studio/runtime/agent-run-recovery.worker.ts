import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Metrics } from '../../lib/metrics.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { recoverAbandonedRuns } from './agent-run.record.js';

export interface AgentRunRecoveryWorker {
  start(): void;
  stop(): Promise<void>;
  runOnce(): Promise<number>;
}

const BATCH = 100;

/**
 * Fails the agent runs whose process stopped renewing their lease, so no run stays `running`
 * forever after a crash (a run waiting its turn in a thread fails such a run itself; this catches
 * those nobody waits behind). Every process runs one: each run is failed by a conditional update,
 * once.
 */
export function createAgentRunRecoveryWorker(
  deps: {
    db: Kysely<DB>;
    clock: Clock;
    ids: IdFactory;
    log: Pick<FastifyBaseLogger, 'error'>;
    metrics?: Pick<Metrics, 'aiRunEnded'>;
  },
  options: { intervalMs?: number } = {},
): AgentRunRecoveryWorker {
  const runOnce = () => recoverAbandonedRuns(deps, BATCH);
  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: options.intervalMs ?? 30_000,
    batchSize: BATCH,
    onError: (error) => deps.log.error({ err: error }, 'agent run recovery pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
