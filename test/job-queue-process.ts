import type { Kysely } from 'kysely';
import { connectPostgres } from '../src/db/connect.js';
import { claimLeased, finishUnderLease, leaseUntil } from '../src/db/job-queue.js';
import { LEASE_MS, QUEUE, type TestSchema } from './job-queue-fixture.js';

// A process of its own claiming from the job queue's test queue, started by src/db/job-queue.test.ts:
//   node --import tsx test/job-queue-process.ts drain <database url> <now>
//     claims three jobs at a time and finishes each under its lease until none is left, then prints
//     the ids it did, as JSON, and exits;
//   node --import tsx test/job-queue-process.ts claim-and-hang <database url> <now>
//     claims one job, prints its id, and hangs holding it until it is killed.

const [mode, url, now] = process.argv.slice(2);
if (!mode || !url || !now) {
  throw new Error('usage: job-queue-process.ts drain|claim-and-hang <database url> <now>');
}
const handle = connectPostgres(url, 2);
const db = handle.db as unknown as Kysely<TestSchema>;
const until = leaseUntil(new Date(now), LEASE_MS);
const claim = (limit: number) => claimLeased(db, QUEUE, { now, leaseUntil: until, limit });

if (mode === 'drain') {
  const done: string[] = [];
  for (let batch = await claim(3); batch.length > 0; batch = await claim(3)) {
    for (const job of batch) {
      if (await finishUnderLease(db, QUEUE, { id: job.id, until }, { status: 'done', result: String(process.pid) })) {
        done.push(job.id);
      }
    }
  }
  process.stdout.write(`${JSON.stringify(done)}\n`);
  await handle.close();
} else {
  const [job] = await claim(1);
  process.stdout.write(`${job?.id ?? ''}\n`);
  setInterval(() => undefined, 60_000);
}
