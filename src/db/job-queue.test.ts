import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { createTestDatabase, TEST_NOW } from '../../test/harness.js';
import { fixedClock } from '../lib/clock.js';
import { connectPostgres, type DatabaseHandle } from './connect.js';
import type { Dialect } from './dialect.js';
import {
  backoffMs,
  claimLeased,
  failLapsedLeases,
  finishUnderLease,
  keepLeaseRenewed,
  type LeaseColumns,
  type LeasedQueue,
  leaseLapsed,
  leaseUntil,
  noEarlierUnfinished,
  renewLease,
} from './job-queue.js';

/** A queue of the test's own, in a scratch table beside the app's schema. */
interface QueueJobTable {
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
interface TestSchema {
  queue_jobs: QueueJobTable;
}

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 3;

const JOBS: LeaseColumns<TestSchema, 'queue_jobs'> = {
  table: 'queue_jobs',
  lease: 'locked_until',
  state: { column: 'status', claimed: 'running' },
  attempts: 'attempts',
};

/** Pending and due, or running under a lapsed lease with attempts left; in order within a lane. */
const QUEUE: LeasedQueue<TestSchema, 'queue_jobs', 'id' | 'attempts' | 'lane'> = {
  ...JOBS,
  claimable: (eb, now) =>
    eb.and([
      eb.or([eb.and([eb('status', '=', 'pending'), eb('due_at', '<=', now)]), leaseLapsed(eb, JOBS, now, MAX_ATTEMPTS)]),
      noEarlierUnfinished(eb, JOBS, { key: 'lane', position: 'position', unfinished: ['pending', 'running'] }),
    ]),
  order: ['due_at', 'id'],
  returning: ['id', 'attempts', 'lane'],
};

async function createQueueTable(db: Kysely<TestSchema>): Promise<void> {
  await sql`create table queue_jobs (
    id text primary key, status text not null, attempts integer not null default 0,
    locked_until text, due_at text not null, lane text not null, position integer not null, result text
  )`.execute(db);
}

describe.each(DIALECTS)('the leased job queue (%s)', (dialect: Dialect) => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Kysely<TestSchema>;
  const clock = fixedClock(TEST_NOW);
  const now = () => clock.now().toISOString();
  const claim = (on: Kysely<TestSchema>, limit = 10) =>
    claimLeased(on, QUEUE, { now: now(), leaseUntil: leaseUntil(clock.now(), LEASE_MS), limit });
  const addJobs = (...jobs: { id: string; lane?: string; position?: number }[]) =>
    db
      .insertInto('queue_jobs')
      .values(
        jobs.map((job, index) => ({
          id: job.id,
          status: 'pending' as const,
          attempts: 0,
          due_at: now(),
          lane: job.lane ?? job.id,
          position: job.position ?? index,
        })),
      )
      .execute();
  const jobRow = (id: string) => db.selectFrom('queue_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeEach(async () => {
    clock.set(TEST_NOW);
    handle = await createTestDatabase(dialect);
    db = handle.db as unknown as Kysely<TestSchema>;
    await createQueueTable(db);
  });

  afterEach(async () => {
    await handle.drop();
  });

  it('claims due rows in order under a lease, counting the attempt, and never a claimed one again while it holds', async () => {
    await addJobs({ id: 'b' }, { id: 'a' }, { id: 'c' });
    // A statement's RETURNING has no order: the rows are compared sorted.
    const first = (await claim(db, 2)).toSorted((x, y) => x.id.localeCompare(y.id));
    expect(first).toEqual([
      { id: 'a', attempts: 1, lane: 'a' },
      { id: 'b', attempts: 1, lane: 'b' },
    ]);
    expect(await jobRow('a')).toMatchObject({ status: 'running', locked_until: leaseUntil(clock.now(), LEASE_MS) });
    clock.advance(LEASE_MS - 1);
    expect((await claim(db)).map((row) => row.id)).toEqual(['c']);
    expect(await claim(db)).toEqual([]);
  });

  it('takes a row again once its lease lapsed, and records only the result of the holder of the lease', async () => {
    await addJobs({ id: 'job' });
    const claimedAt = clock.now();
    await claim(db);
    const stale = { id: 'job', until: leaseUntil(claimedAt, LEASE_MS) };
    clock.advance(LEASE_MS);
    const [again] = await claim(db);
    expect(again).toEqual({ id: 'job', attempts: 2, lane: 'job' });
    const current = { id: 'job', until: leaseUntil(clock.now(), LEASE_MS) };

    expect(await finishUnderLease(db, JOBS, stale, { status: 'done', result: 'stale' })).toBe(false);
    expect(await renewLease(db, JOBS, stale, leaseUntil(clock.now(), 2 * LEASE_MS))).toBe(false);
    expect(await jobRow('job')).toMatchObject({ status: 'running', result: null, locked_until: current.until });

    expect(await finishUnderLease(db, JOBS, current, { status: 'done', result: 'fresh' })).toBe(true);
    expect(await jobRow('job')).toMatchObject({ status: 'done', result: 'fresh', locked_until: null });
  });

  it('fails the rows whose lease lapsed on their last attempt, and leaves the others', async () => {
    await addJobs({ id: 'tired' }, { id: 'young' });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect((await claim(db, 1)).map((row) => row.id)).toEqual(['tired']);
      clock.advance(LEASE_MS);
    }
    expect((await claim(db)).map((row) => row.id)).toEqual(['young']);
    clock.advance(LEASE_MS);
    expect(await jobRow('tired')).toMatchObject({ status: 'running', attempts: MAX_ATTEMPTS });
    const failed = await failLapsedLeases(db, JOBS, { now: now(), maxAttempts: MAX_ATTEMPTS }, { status: 'failed' });
    expect(failed).toBe(1);
    expect(await jobRow('tired')).toMatchObject({ status: 'failed', locked_until: null });
    expect(await jobRow('young')).toMatchObject({ status: 'running' });
  });

  it("keeps one key's rows in order: a later one waits while an earlier one is unfinished", async () => {
    await addJobs(
      { id: 'a1', lane: 'a', position: 1 },
      { id: 'a2', lane: 'a', position: 2 },
      { id: 'b1', lane: 'b', position: 1 },
    );
    expect((await claim(db)).map((row) => row.id).toSorted()).toEqual(['a1', 'b1']);
    expect(await claim(db)).toEqual([]);
    await finishUnderLease(db, JOBS, { id: 'a1', until: leaseUntil(clock.now(), LEASE_MS) }, { status: 'done' });
    expect((await claim(db)).map((row) => row.id)).toEqual(['a2']);
  });

  it('renews a lease while work goes on, and tells when another process took the row over', async () => {
    await addJobs({ id: 'long' });
    await claim(db);
    let lost = false;
    const kept = keepLeaseRenewed(
      db,
      JOBS,
      { id: 'long', until: leaseUntil(clock.now(), LEASE_MS) },
      { clock, leaseMs: LEASE_MS, everyMs: 5, onLost: () => (lost = true) },
    );
    clock.advance(1_000);
    await expect.poll(async () => (await jobRow('long')).locked_until).toBe(leaseUntil(clock.now(), LEASE_MS));
    expect(kept.lease.until).toBe(leaseUntil(clock.now(), LEASE_MS));
    // Another process takes it over (as after a lapse): the next renewal finds the lease gone.
    await db.updateTable('queue_jobs').set({ locked_until: 'taken over' }).where('id', '=', 'long').execute();
    await expect.poll(() => lost).toBe(true);
    await kept.stop();
  });

  it('backs off exponentially, capped', () => {
    expect([1, 2, 3, 4].map((failures) => backoffMs(failures, 1_000, 5_000))).toEqual([1_000, 2_000, 4_000, 5_000]);
  });

  it.runIf(dialect === 'postgres')(
    'lets two processes claim from one queue side by side without doing any job twice',
    async () => {
      const other = connectPostgres(handle.url ?? '', 5) as DatabaseHandle;
      try {
        const ids = Array.from({ length: 60 }, (_, index) => `job-${String(index).padStart(2, '0')}`);
        await addJobs(...ids.map((id) => ({ id })));
        const drain = async (process: Kysely<TestSchema>) => {
          const taken: string[] = [];
          for (let batch = await claim(process, 3); batch.length > 0; batch = await claim(process, 3)) {
            taken.push(...batch.map((row) => row.id));
          }
          return taken;
        };
        const pools = [db, other.db as unknown as Kysely<TestSchema>];
        const taken = (await Promise.all([...pools, ...pools].map(drain))).flat();
        expect(taken.toSorted()).toEqual(ids);
      } finally {
        await other.close();
      }
    },
  );

  it.runIf(dialect === 'postgres')('gives the job of a process killed mid-job to another once its lease lapsed', async () => {
    const doomed = connectPostgres(handle.url ?? '', 2) as DatabaseHandle;
    await addJobs({ id: 'orphan' });
    const [taken] = await claim(doomed.db as unknown as Kysely<TestSchema>);
    expect(taken?.id).toBe('orphan');
    // The process dies: its connections go, and no one renews the lease.
    await doomed.close();
    expect(await claim(db)).toEqual([]);
    clock.advance(LEASE_MS);
    const [again] = await claim(db);
    expect(again).toEqual({ id: 'orphan', attempts: 2, lane: 'orphan' });
    expect(await finishUnderLease(db, JOBS, { id: 'orphan', until: leaseUntil(clock.now(), LEASE_MS) }, { status: 'done' })).toBe(
      true,
    );
  });
});
