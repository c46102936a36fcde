import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdateSkipLocked } from '../../db/dialect.js';
import {
  claimLeased,
  failLapsedLeases,
  finishUnderLease,
  type Lease,
  type LeaseColumns,
  type LeasedQueue,
  leaseLapsed,
} from '../../db/job-queue.js';
import { storableJsonText, storableText } from '../../lib/storable-text.js';
import type { TicketAgentJobTable } from './ticket-agent.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** The id of a live agent of the organization, if `agentId` is one. */
export async function findLiveAgentId(db: Db, organizationId: string, agentId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('agents')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', agentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

/** The organization's cursor at `lastSeq`, made if it has none; an existing one is kept. */
export async function insertTicketAgentCursor(
  trx: Transaction<DB>,
  organizationId: string,
  lastSeq: number,
  now: string,
): Promise<void> {
  await trx
    .insertInto('ticket_agent_cursors')
    .values({ organization_id: organizationId, dispatched_seq: lastSeq, updated_at: now })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
}

/** One organization whose cursor is behind its log, locked (others skip it) until the transaction ends. */
export async function lockCursorBehindLog(trx: Transaction<DB>, exclude: readonly string[]) {
  let query = trx
    .selectFrom('ticket_agent_cursors')
    .select(['organization_id', 'dispatched_seq'])
    .where('dispatched_seq', '<', (eb) =>
      eb
        .selectFrom('event_sequences')
        .select('event_sequences.last_seq')
        .whereRef('event_sequences.organization_id', '=', 'ticket_agent_cursors.organization_id'),
    );
  if (exclude.length > 0) {
    query = query.where('organization_id', 'not in', [...exclude]);
  }
  return forUpdateSkipLocked(trx, query.orderBy('organization_id').limit(1)).executeTakeFirst();
}

export async function advanceCursor(trx: Transaction<DB>, organizationId: string, seq: number, now: string): Promise<void> {
  await trx
    .updateTable('ticket_agent_cursors')
    .set({ dispatched_seq: seq, updated_at: now })
    .where('organization_id', '=', organizationId)
    .execute();
}

/** The teams among `teamIds` whose tickets an agent works, with the agent and the mode. */
export async function findTeamsWithAgents(db: Db, organizationId: string, teamIds: readonly string[]) {
  if (teamIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('team_configurations')
    .select(['team_id', 'ai_agent_id', 'ai_agent_mode'])
    .where('organization_id', '=', organizationId)
    .where('team_id', 'in', [...new Set(teamIds)])
    .where('ai_agent_mode', '!=', 'off')
    .where('ai_agent_id', 'is not', null)
    .execute();
}

/** Inserts the jobs of events not turned into one yet; an event already dispatched is skipped. */
export async function insertJobs(db: Db, rows: readonly Insertable<TicketAgentJobTable>[]): Promise<number> {
  if (rows.length === 0) {
    return 0;
  }
  const result = await db
    .insertInto('ticket_agent_jobs')
    .values([...rows])
    .onConflict((oc) => oc.columns(['organization_id', 'event_seq']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

const JOB_COLUMNS = [
  'id',
  'organization_id',
  'event_seq',
  'event_type',
  'ticket_id',
  'team_id',
  'agent_id',
  'mode',
  'status',
  'attempts',
  'locked_until',
  'run_id',
] as const;

/** Jobs as a leased queue: a claimed job is `running` under a lease in `locked_until`, renewed as it works. */
export const JOB_LEASE: LeaseColumns<DB, 'ticket_agent_jobs'> = {
  table: 'ticket_agent_jobs',
  lease: 'locked_until',
  state: { column: 'status', claimed: 'running' },
  attempts: 'attempts',
};

/**
 * Claimable, oldest first: pending jobs, running ones whose process stopped renewing (crashed), and
 * ones waiting on their run's approval once the run was decided and ended; with attempts left.
 */
function jobQueue(maxAttempts: number): LeasedQueue<DB, 'ticket_agent_jobs', (typeof JOB_COLUMNS)[number]> {
  return {
    ...JOB_LEASE,
    claimable: (eb, now) =>
      eb.and([
        eb.or([
          eb('ticket_agent_jobs.status', '=', 'pending'),
          leaseLapsed(eb, JOB_LEASE, now),
          eb.and([
            eb('ticket_agent_jobs.status', '=', 'awaiting_approval'),
            eb.exists(
              eb
                .selectFrom('agent_runs')
                .select('agent_runs.id')
                .whereRef('agent_runs.id', '=', 'ticket_agent_jobs.run_id')
                .where('agent_runs.status', 'in', ['succeeded', 'failed', 'rejected']),
            ),
          ]),
        ]),
        eb('ticket_agent_jobs.attempts', '<', maxAttempts),
      ]),
    order: ['id'],
    returning: JOB_COLUMNS,
    onClaim: (now) => ({ updated_at: now }),
  };
}

/** Claims up to `limit` jobs under a lease (`claimLeased`); two workers never claim the same job. */
export async function claimJobs(db: Kysely<DB>, claim: { now: string; lockedUntil: string; limit: number; maxAttempts: number }) {
  return claimLeased(db, jobQueue(claim.maxAttempts), { now: claim.now, leaseUntil: claim.lockedUntil, limit: claim.limit });
}

export type TicketAgentJobRow = Awaited<ReturnType<typeof claimJobs>>[number];

/** Jobs whose attempts ran out while running (their process died each time): failed, with the reason. */
export async function failExhaustedJobs(db: Kysely<DB>, now: string, maxAttempts: number): Promise<number> {
  return failLapsedLeases(
    db,
    JOB_LEASE,
    { now, maxAttempts },
    { status: 'failed', error: 'The process working this job stopped, every attempt', updated_at: now },
  );
}

/**
 * Records how a job ended, while its lease is still this worker's (a job taken over is left to its
 * new owner). A job left `awaiting_approval` starts its attempts afresh for when it is resumed.
 */
export async function finishJob(
  db: Db,
  lease: Lease,
  end: {
    status: 'done' | 'failed' | 'awaiting_approval';
    runId: string | null;
    outcome: string | null;
    error: string | null;
    now: string;
  },
): Promise<boolean> {
  return finishUnderLease(db, JOB_LEASE, lease, {
    status: end.status,
    run_id: end.runId,
    // What a run or a tool said may be in them: text from outside, made storable.
    outcome: end.outcome === null ? null : storableJsonText(end.outcome),
    error: storableText(end.error),
    ...(end.status === 'awaiting_approval' ? { attempts: 0 } : {}),
    updated_at: end.now,
  });
}

/** A ticket's jobs, newest first: what its team's agent did with each event. */
export async function listJobsOfTicket(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('ticket_agent_jobs')
    .select([...JOB_COLUMNS, 'outcome', 'error', 'created_at', 'updated_at'])
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .orderBy('id', 'desc')
    .execute();
}

/** The event a job answers, as the log holds it. */
export async function findEvent(db: Db, organizationId: string, seq: number) {
  return db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('organization_id', '=', organizationId)
    .where('seq', '=', seq)
    .executeTakeFirst();
}
