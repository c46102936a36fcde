import { type Kysely, sql } from 'kysely';
import { type LeaseColumns, type LeasedQueue, leaseLapsed, noEarlierUnfinished } from '../src/db/job-queue.js';

// The job queue's tests use a queue of their own; their child processes (job-queue-process.ts)
// claim from the same one.

/** A queue of the test's own, in a scratch table beside the app's schema. */
export interface QueueJobTable {
  id: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  locked_until: string | null;
  due_at: string;
  /** Jobs of one lane go one at a time, in `position` order. */
  lane: string;
  position: number;
  result: string | null;
}
export interface TestSchema {
  queue_jobs: QueueJobTable;
}

export const LEASE_MS = 60_000;
export const MAX_ATTEMPTS = 3;

export const JOBS: LeaseColumns<TestSchema, 'queue_jobs'> = {
  table: 'queue_jobs',
  lease: 'locked_until',
  state: { column: 'status', claimed: 'running' },
  attempts: 'attempts',
};

/** Pending and due, or running under a lapsed lease with attempts left; in order within a lane. */
export const QUEUE: LeasedQueue<TestSchema, 'queue_jobs', 'id' | 'attempts' | 'lane'> = {
  ...JOBS,
  claimable: (eb, now) =>
    eb.and([
      eb.or([eb.and([eb('status', '=', 'pending'), eb('due_at', '<=', now)]), leaseLapsed(eb, JOBS, now, MAX_ATTEMPTS)]),
      noEarlierUnfinished(eb, JOBS, { key: 'lane', position: 'position', unfinished: ['pending', 'running'] }),
    ]),
  order: ['due_at', 'id'],
  returning: ['id', 'attempts', 'lane'],
};

export async function createQueueTable(db: Kysely<TestSchema>): Promise<void> {
  await sql`create table queue_jobs (
    id text primary key, status text not null, attempts integer not null default 0,
    locked_until text, due_at text not null, lane text not null, position integer not null, result text
  )`.execute(db);
}
