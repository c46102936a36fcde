import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { keepLeaseRenewed, type Lease, leaseUntil } from '../../db/job-queue.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { dispatchTicketEvents } from './ticket-agent.dispatcher.js';
import { claimJobs, failExhaustedJobs, finishJob, JOB_LEASE, type TicketAgentJobRow } from './ticket-agent.repository.js';

/** What the agent did with one job, as the job records it. */
export interface TicketAgentOutcome {
  runId: string | null;
  outcome: Record<string, unknown>;
}

/** The process stopped while the run was going: the job is left to be taken again after its lease, not recorded as failed. */
export class TicketAgentInterrupted extends Error {}

/** Works one claimed job: runs the team's agent on the ticket and acts on its answer. */
export type RespondToTicket = (job: TicketAgentJobRow, signal: AbortSignal) => Promise<TicketAgentOutcome>;

export interface TicketAgentWorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  pollMs: number;
  respond: RespondToTicket;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** How often a job's lease is renewed while it is worked; `JOB_LEASE_MS / 4` unless a test says otherwise. */
  leaseRenewMs?: number;
}

export interface TicketAgentWorker {
  start(): void;
  /** Stops polling, aborts the runs in progress (their jobs are taken again after the lease) and waits for the pass. */
  stop(): Promise<void>;
  /** One pass: dispatches new events, then works the claimable jobs; resolves to how much it did. */
  runOnce(): Promise<number>;
}

/**
 * How long a worker vouches for a job it works without renewing. It renews every quarter of it
 * while the run goes on (a run may last up to an hour), so only a process that stopped loses a
 * job, and another takes it within minutes.
 */
export const JOB_LEASE_MS = 2 * 60_000;
/** A job whose process died this many times is failed rather than tried again. */
export const MAX_JOB_ATTEMPTS = 3;
const CONCURRENCY = 4;

/**
 * The agents-on-tickets worker, one in every process. Events become jobs exactly once (the
 * dispatcher's unique constraint), each job is claimed by one worker under a lease (the leased job
 * queue, `db/job-queue.ts`), renewed while it works, and its end is recorded only while the lease is
 * still that worker's.
 */
export function createTicketAgentWorker(deps: TicketAgentWorkerDeps): TicketAgentWorker {
  const { db, clock, log } = deps;
  const aborts = new AbortController();

  /** Renews the job's lease until `stop`; aborts `lost` if another process took the job meanwhile. */
  function keepLease(job: TicketAgentJobRow, lost: AbortController) {
    return keepLeaseRenewed(
      db,
      JOB_LEASE,
      { id: job.id, until: job.locked_until ?? '' },
      {
        clock,
        leaseMs: JOB_LEASE_MS,
        everyMs: deps.leaseRenewMs ?? JOB_LEASE_MS / 4,
        onLost: () => lost.abort(new TicketAgentInterrupted('Another process took this job over: its lease was lost')),
      },
    );
  }

  async function work(job: TicketAgentJobRow): Promise<void> {
    const lost = new AbortController();
    const kept = keepLease(job, lost);
    let end: {
      status: 'done' | 'failed' | 'awaiting_approval';
      runId: string | null;
      outcome: string | null;
      error: string | null;
    };
    try {
      const result = await deps.respond(job, AbortSignal.any([aborts.signal, lost.signal]));
      const waiting = result.outcome.action === 'awaiting_approval';
      end = {
        status: waiting ? 'awaiting_approval' : 'done',
        runId: result.runId,
        outcome: JSON.stringify(result.outcome),
        error: null,
      };
    } catch (error) {
      if (aborts.signal.aborted || lost.signal.aborted || error instanceof TicketAgentInterrupted) {
        // Shutting down, or taken over: the lease runs out (or has) and another process takes the job.
        await kept.stop();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      log.warn({ jobId: job.id, ticketId: job.ticket_id, agentId: job.agent_id }, `ticket agent job failed: ${message}`);
      end = { status: 'failed', runId: job.run_id, outcome: null, error: message };
    }
    await kept.stop();
    await recordEnd(db, kept.lease, { ...end, now: clock.now().toISOString() });
  }

  async function runOnce(): Promise<number> {
    const dispatched = await dispatchTicketEvents({ db, clock, ids: deps.ids });
    const now = clock.now();
    await failExhaustedJobs(db, now.toISOString(), MAX_JOB_ATTEMPTS);
    const jobs = await claimJobs(db, {
      now: now.toISOString(),
      lockedUntil: leaseUntil(now, JOB_LEASE_MS),
      limit: CONCURRENCY,
      maxAttempts: MAX_JOB_ATTEMPTS,
    });
    await Promise.all(jobs.map(work));
    return dispatched + jobs.length;
  }

  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: deps.pollMs,
    batchSize: 1,
    onError: (error) => log.error({ err: error }, 'ticket agent pass failed'),
  });

  return {
    start: loop.start,
    async stop() {
      aborts.abort();
      await loop.stop();
    },
    runOnce,
  };
}

/**
 * Records how a job ended. Should the database refuse that, the job is failed saying why, rather
 * than left running to be taken again after its lease and answered a second time.
 */
async function recordEnd(db: Kysely<DB>, lease: Lease, end: Parameters<typeof finishJob>[2]) {
  try {
    await finishJob(db, lease, end);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await finishJob(db, lease, {
      ...end,
      status: 'failed',
      outcome: null,
      error: `The job's end could not be recorded (${reason})`,
    });
  }
}
