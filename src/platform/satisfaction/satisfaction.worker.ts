import type { FastifyBaseLogger } from 'fastify';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { type SurveySendDeps, sendDueSurveys } from './satisfaction-send.service.js';

export interface SatisfactionWorkerDeps extends SurveySendDeps {
  log: Pick<FastifyBaseLogger, 'error'>;
}

export interface SatisfactionWorker {
  start(): void;
  stop(): Promise<void>;
  /** One pass over the surveys due now; resolves to how many it decided. */
  runOnce(): Promise<number>;
}

/**
 * Emails the satisfaction surveys once they are due (`satisfaction-send.service.ts`), in every
 * process: each survey is taken by one conditional update (pending to sent) in the transaction
 * that queues its email in the outbox, so none is sent twice; the outbox's leased queue delivers it.
 */
export function createSatisfactionWorker(
  deps: SatisfactionWorkerDeps,
  options: { intervalMs?: number; batchSize?: number } = {},
): SatisfactionWorker {
  const batchSize = options.batchSize ?? 100;
  const runOnce = () => sendDueSurveys(deps, batchSize);
  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: options.intervalMs ?? 30_000,
    batchSize,
    onError: (error) => deps.log.error({ err: error }, 'satisfaction survey pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
