import type { FastifyBaseLogger } from 'fastify';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { announceDueSlaAlerts, type SlaAlertDeps } from './ticket-sla-alert.service.js';

export interface TicketSlaWorkerDeps extends SlaAlertDeps {
  log: Pick<FastifyBaseLogger, 'error'>;
}

export interface TicketSlaWorker {
  start(): void;
  stop(): Promise<void>;
  /** One pass over the warnings and breaches due now; resolves to how many it decided. */
  runOnce(): Promise<number>;
}

/**
 * Announces SLA warnings and breaches as their times pass (`ticket-sla-alert.service.ts`), in every
 * process: each is taken by one conditional update in the transaction that records its event,
 * timeline entry and emails, so any number of processes announce each once. After each pass it
 * reports its lag, how long the oldest alert still due has waited.
 */
export function createTicketSlaWorker(
  deps: TicketSlaWorkerDeps,
  options: { intervalMs?: number; batchSize?: number } = {},
): TicketSlaWorker {
  const batchSize = options.batchSize ?? 100;
  const runOnce = () => announceDueSlaAlerts(deps, batchSize);
  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: options.intervalMs ?? 10_000,
    batchSize,
    onError: (error) => deps.log.error({ err: error }, 'SLA alerts pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
