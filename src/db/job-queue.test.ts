import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { createTestDatabase, TEST_NOW } from '../../test/harness.js';
import { createQueueTable, JOBS, LEASE_MS, MAX_ATTEMPTS, QUEUE, type TestSchema } from '../../test/job-queue-fixture.js';
import { fixedClock } from '../lib/clock.js';
import type { Dialect } from './dialect.js';
import {
  backoffMs,
  claimLeased,
  failLapsedLeases,
  finishUnderLease,
  keepLeaseRenewed,
  leaseUntil,
  renewLease,
} from './job-queue.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
      const ids = Array.from({ length: 60 }, (_, index) => `job-${String(index).padStart(2, '0')}`);
      await addJobs(...ids.map((id) => ({ id })));
      const processes = [startProcess('drain', handle.url ?? '', now()), startProcess('drain', handle.url ?? '', now())];
      const done = await Promise.all(processes.map(async (child) => JSON.parse(await child.firstLine) as string[]));
      await Promise.all(processes.map((child) => child.exited));
      expect(done.flat().toSorted()).toEqual(ids);
      const rows = await db.selectFrom('queue_jobs').select(['status', 'attempts']).execute();
      expect(rows.every((row) => row.status === 'done' && Number(row.attempts) === 1)).toBe(true);
    },
    60_000,
  );

  it.runIf(dialect === 'postgres')(
    'gives the job of a process killed mid-job to another once its lease lapsed',
    async () => {
      await addJobs({ id: 'orphan' });
      const doomed = startProcess('claim-and-hang', handle.url ?? '', now());
      expect(await doomed.firstLine).toBe('orphan');
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      // Nobody renews the lease of a dead process, and until it lapses the job stays taken.
      expect(await claim(db)).toEqual([]);
      clock.advance(LEASE_MS);
      const [again] = await claim(db);
      expect(again).toEqual({ id: 'orphan', attempts: 2, lane: 'orphan' });
      const lease = { id: 'orphan', until: leaseUntil(clock.now(), LEASE_MS) };
      expect(await finishUnderLease(db, JOBS, lease, { status: 'done' })).toBe(true);
    },
    60_000,
  );
});

/** A process of its own running test/job-queue-process.ts: its first line of output, and its end. */
function startProcess(mode: 'drain' | 'claim-and-hang', url: string, at: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/job-queue-process.ts', mode, url, at], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const end = output.indexOf('\n');
      if (end >= 0) {
        resolve(output.slice(0, end));
      }
    });
    child.once('exit', (code) => reject(new Error(`job-queue-process.ts ${mode} ended (${code}) before a line`)));
  });
  return { child, firstLine, exited };
}
