import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { assignAllWaitingTickets } from './routing.pipeline.js';

/** An assignment emails the assignee (`ticket-email.service.ts`). */
export interface RoutingWorkerDeps extends TicketEmailDeps {
  db: Kysely<DB>;
  log: Pick<FastifyBaseLogger, 'error'>;
}

export interface RoutingWorkerOptions {
  /** Pause between passes; a team's opening is noticed within this time. Default 30 s. */
  intervalMs?: number;
  /** Most tickets one pass assigns per team; a full batch starts the next pass at once. Default 100. */
  batchSize?: number;
}

export interface RoutingWorker {
  /** Runs a pass now and then every `intervalMs` until `stop()`. */
  start(): void;
  /** Stops the passes and waits for one in progress. */
  stop(): Promise<void>;
  /** One pass over every team with waiting tickets; resolves to how many tickets it assigned. */
  runOnce(): Promise<number>;
}

/**
 * The waiting-tickets worker: assigns tickets that routing left unassigned, oldest first, once
 * their team has an eligible member (a team opening, a member back within their hours, or a
 * trigger that failed). Members coming online and tickets being closed assign at once in their
 * own request; this pass catches everything that has no request. Safe with any number of
 * processes: each ticket is claimed with `for update skip locked` and the candidates are locked.
 */
export function createRoutingWorker(deps: RoutingWorkerDeps, options: RoutingWorkerOptions = {}): RoutingWorker {
  const intervalMs = options.intervalMs ?? 30_000;
  const batchSize = options.batchSize ?? 100;
  const runOnce = () => assignAllWaitingTickets(deps.db, deps, batchSize);
  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs,
    batchSize,
    onError: (error) => deps.log.error({ err: error }, 'routing pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
