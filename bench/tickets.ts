import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { monotonicFactory } from 'ulid';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';
import { connectPostgres, connectSqlite, type DatabaseHandle } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { systemClock } from '../src/lib/clock.js';
import { createIdFactory } from '../src/lib/ids.js';
import { createOrganizationWithAdmin } from '../src/platform/organizations/organization.service.js';
import type { BenchDialect } from './datasets.js';
import { COMMON_OPTIONS, parse, redact, resolveTarget } from './options.js';
import { openPostgresSeedDb, openSqliteSeedDb, recreatePostgresDatabase, type SeedDb } from './seed-db.js';

/**
 * `npm run bench:tickets`: the ticket list at a million tickets. Seeds one organization's tickets
 * by direct inserts (copies of a ticket made through the API, with ULIDs and increasing creation
 * times, spread over statuses, priorities, assignees and requestors), then times, in process
 * through `app.inject`, the first page, a deep cursor page, filtered and sorted pages, and the
 * lookups by id and by identifier. Each figure is the median of `--runs` requests after warm-up.
 *
 * Options: --dialect sqlite|postgres|both|auto (default auto), --rows-1m N (default 1000000),
 * --runs N (default 25).
 */

const PG_DATABASE = 'sb_bench_tickets';
const LIMIT = 25;

interface Timing {
  label: string;
  path: string;
  medianMs: number;
  p90Ms: number;
  rows: number;
}

async function main(): Promise<void> {
  const values = parse(process.argv.slice(2), { ...COMMON_OPTIONS, runs: { type: 'string', default: '25' } });
  if (values.help) {
    console.log('npm run bench:tickets -- [--dialect sqlite|postgres|both] [--rows-1m N] [--runs N]');
    return;
  }
  const target = await resolveTarget(values);
  const runs = Number(values.runs);
  const results: Record<string, Timing[]> = {};
  for (const dialect of target.dialects) {
    results[dialect] = await benchDialect(dialect, target.rowsOf1m, runs, target.adminUrl);
  }
  console.log(`\nTicket list, ${target.rowsOf1m.toLocaleString('en')} tickets, median of ${runs} (ms, in process)\n`);
  const labels = results[target.dialects[0] as string]?.map((timing) => timing.label) ?? [];
  console.log(`| Request | ${target.dialects.join(' | ')} |`);
  console.log(`|---|${target.dialects.map(() => '---:').join('|')}|`);
  for (const label of labels) {
    const cells = target.dialects.map((dialect) => {
      const timing = results[dialect]?.find((candidate) => candidate.label === label);
      return timing ? `${timing.medianMs.toFixed(2)} (p90 ${timing.p90Ms.toFixed(2)})` : '';
    });
    console.log(`| ${label} | ${cells.join(' | ')} |`);
  }
  if (target.dialects.includes('postgres')) {
    console.log(`\nPostgreSQL: ${target.postgresVersion} at ${redact(target.adminUrl)}`);
  }
}

async function benchDialect(dialect: BenchDialect, rows: number, runs: number, adminUrl: string): Promise<Timing[]> {
  const log = (line: string) => console.log(`[${dialect}] ${line}`);
  const dir = join(tmpdir(), 'switchboard-bench-tickets');
  let handle: DatabaseHandle;
  let seedDb: () => Promise<SeedDb>;
  if (dialect === 'sqlite') {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'tickets.db');
    handle = connectSqlite(file);
    seedDb = async () => openSqliteSeedDb(file);
  } else {
    await recreatePostgresDatabase(adminUrl, PG_DATABASE);
    const url = new URL(adminUrl);
    url.pathname = `/${PG_DATABASE}`;
    handle = connectPostgres(url.toString(), 4);
    seedDb = () => openPostgresSeedDb(url.toString());
  }
  try {
    await migrateToLatest(handle.db);
    const ids = createIdFactory(systemClock);
    const app = await buildApp({
      config: parseConfig({ PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', AUTH_FAILURES_PER_MINUTE: '0' }),
      db: handle.db,
      clock: systemClock,
      ids,
      log: pino({ level: 'silent' }),
    });
    await app.ready();
    try {
      const organization = await createOrganizationWithAdmin(
        { db: handle.db, clock: systemClock, ids },
        { name: 'Bench', adminEmail: 'admin@bench.test', adminName: 'Admin' },
      );
      const headers = { 'x-api-key': organization.apiKey };
      const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
        const response = await app.inject({ method, url, headers, payload });
        if (response.statusCode >= 300) {
          throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
        }
        return response.json();
      };
      const team = (await call('POST', '/v1/teams', { name: 'Bench', identifier: 'BEN' })).data;
      const template = (
        await call('POST', '/v1/tickets', {
          title: 'Printer on fire',
          requestorEmail: 'customer@bench.test',
          teamId: team.id,
          description: 'It smokes since this morning.',
          performRouting: false,
        })
      ).data;
      const options = await handle.db
        .selectFrom('ticket_options')
        .select(['id', 'kind'])
        .where('team_id', '=', team.id)
        .orderBy('position')
        .execute();
      const statuses = options.filter((option) => option.kind === 'status').map((option) => option.id);
      const priorities = options.filter((option) => option.kind === 'priority').map((option) => option.id);

      const copies = rows - 1;
      const base = Date.now() - (copies + 60) * 1000;
      const nextUlid = monotonicFactory();
      const idsOf: string[] = [];
      for (let index = 0; index < copies; index++) {
        idsOf.push(nextUlid(base + index * 1000));
      }
      const iso = (ms: number) => new Date(ms).toISOString();
      log(`seeding ${copies.toLocaleString('en')} tickets`);
      const started = performance.now();
      const seed = await seedDb();
      try {
        await seed.copyRow('tickets', 'id', template.id, copies, {
          id: (index) => idsOf[index] as string,
          ticket_number: (index) => index + 2,
          ticket_identifier: (index) => `BEN-${index + 2}`,
          status_id: (index) => statuses[index % statuses.length] as string,
          priority_id: (index) => priorities[Math.floor(index / 7) % priorities.length] as string,
          assigned_agent_id: (index) => (index % 3 === 0 ? organization.userId : null),
          requestor_email: (index) => `customer${index % 50_000}@bench.test`,
          created_at: (index) => iso(base + index * 1000),
          // Changes spread over the whole period, in another order than creation.
          updated_at: (index) => iso(base + ((index * 7919) % copies) * 1000 + 500),
        });
        await seed.exec('update team_ticket_counters set last_number = ? where team_id = ?', [copies + 1, team.id]);
        log(`  inserted in ${((performance.now() - started) / 1000).toFixed(1)} s; analyzing`);
        await seed.finish();
      } finally {
        await seed.close();
      }
      log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

      const timings: Timing[] = [];
      const time = async (label: string, path: string) => {
        let count = 0;
        for (let warm = 0; warm < 3; warm++) {
          count = (await call('GET', path)).data?.length ?? 1;
        }
        const samples: number[] = [];
        for (let run = 0; run < runs; run++) {
          const start = performance.now();
          await call('GET', path);
          samples.push(performance.now() - start);
        }
        samples.sort((a, b) => a - b);
        const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
        timings.push({ label, path, medianMs: at(0.5), p90Ms: at(0.9), rows: count });
        log(`  ${label}: ${at(0.5).toFixed(2)} ms`);
      };
      /** The cursor of `path` moved deep: the fingerprint of its own first page, the keys of a row far down. */
      const deepCursor = async (path: string, keys: (string | number)[]) => {
        const first = await call('GET', path);
        const decoded = JSON.parse(Buffer.from(first.nextCursor, 'base64url').toString('utf8')) as unknown[];
        return Buffer.from(JSON.stringify([...keys, decoded.at(-1)]), 'utf8').toString('base64url');
      };
      const deepIndex = Math.floor(copies / 10);
      const deepCreated = iso(base + deepIndex * 1000);
      const deepId = idsOf[deepIndex] as string;

      const list = `/v1/tickets?limit=${LIMIT}`;
      await time('first page (newest first)', list);
      await time('deep cursor page (90% down)', `${list}&cursor=${await deepCursor(list, [deepCreated, deepId])}`);
      await time("page=400 (10,000 rows skipped, the contract's offset)", `${list}&page=400`);
      const filtered = `${list}&statusName=open&priorityName=high&assignedAgentId=none`;
      await time('filtered: status + priority + unassigned', filtered);
      await time('filtered, deep cursor', `${filtered}&cursor=${await deepCursor(filtered, [deepCreated, deepId])}`);
      await time('filtered: requestor email', `${list}&requestorEmail=customer77@bench.test`);
      await time(
        'filtered: created in one day',
        `${list}&createdAfter=${iso(base + deepIndex * 1000)}&createdBefore=${iso(base + deepIndex * 1000 + 86_400_000)}`,
      );
      const updated = `${list}&sort=-updatedAt`;
      await time('sort -updatedAt', updated);
      await time(
        'sort -updatedAt, deep cursor',
        `${updated}&cursor=${await deepCursor(updated, [iso(base + deepIndex * 1000 + 500), deepId])}`,
      );
      const byPriority = `${list}&sort=-priority`;
      await time('sort -priority', byPriority);
      await time('sort -priority, deep cursor', `${byPriority}&cursor=${await deepCursor(byPriority, [1, deepCreated, deepId])}`);
      const middle = Math.floor(copies / 2);
      await time('GET /v1/tickets/{id}', `/v1/tickets/${idsOf[middle]}`);
      await time('GET /v1/tickets/{identifier}', `/v1/tickets/ben-${middle + 2}`);
      return timings;
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
    // A million tickets take room: the next run seeds again anyway.
    if (dialect === 'sqlite') {
      rmSync(dir, { recursive: true, force: true });
    } else {
      await dropPostgresDatabase(adminUrl, PG_DATABASE);
    }
  }
}

async function dropPostgresDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
