import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, Migrator, NO_MIGRATIONS, sql } from 'kysely';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { adminQuery, uniqueName, withDatabase } from '../../test/test-databases.js';
import { connectPostgres, connectSqlite, type DatabaseHandle } from './connect.js';
import type { Dialect } from './dialect.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';

const MIGRATION_NAMES = Object.keys(migrations).sort();
const TENANCY_TABLES = ['api_keys', 'instance_settings', 'organizations', 'users'];

/** A brand-new, empty database of the dialect (not the migrated test template). */
async function createEmptyDatabase(
  dialect: Dialect,
): Promise<{ connect(poolMax?: number): DatabaseHandle; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const postgres = inject('postgres');
    if (!postgres) {
      throw new Error('PostgreSQL is not available for this run');
    }
    const name = uniqueName('sb_migrations');
    await adminQuery(postgres.serverUrl, `create database "${name}"`);
    return {
      connect: (poolMax) => connectPostgres(withDatabase(postgres.serverUrl, name), poolMax),
      drop: () => adminQuery(postgres.serverUrl, `drop database if exists "${name}" with (force)`),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-migrations-'));
  return {
    connect: () => connectSqlite(join(dir, 'switchboard.db')),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: inspects whatever the migrations made
async function tableNames(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables
    .map((table) => table.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
}

// biome-ignore lint/suspicious/noExplicitAny: reads Kysely's own bookkeeping table
async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const rows = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
  return rows.map((row: { name: string }) => row.name);
}

describe.each(DIALECTS)('migrations on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  async function emptyDatabase() {
    const database = await createEmptyDatabase(dialect);
    cleanups.push(() => database.drop());
    const connect = (poolMax?: number) => {
      const handle = database.connect(poolMax);
      cleanups.push(() => handle.close());
      return handle;
    };
    return { connect };
  }

  it('lists migrations with sortable timestamp names', () => {
    expect(MIGRATION_NAMES.length).toBeGreaterThan(0);
    for (const name of MIGRATION_NAMES) {
      expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}_[a-z0-9_]+$/);
    }
  });

  it('applies every migration to an empty database, then nothing on a second run', async () => {
    const { db } = (await emptyDatabase()).connect();
    expect(await tableNames(db)).toEqual([]);

    expect(await migrateToLatest(db)).toEqual(MIGRATION_NAMES);
    expect(await appliedMigrations(db)).toEqual(MIGRATION_NAMES);
    expect(await tableNames(db)).toEqual(expect.arrayContaining(TENANCY_TABLES));

    expect(await migrateToLatest(db)).toEqual([]);
    expect(await appliedMigrations(db)).toEqual(MIGRATION_NAMES);
  });

  it.runIf(dialect === 'postgres')('applies each migration once when two processes migrate at the same time', async () => {
    const database = await emptyDatabase();
    const first = database.connect(2);
    const second = database.connect(2);

    const results = await Promise.all([migrateToLatest(first.db), migrateToLatest(second.db)]);

    expect(results.flat().sort()).toEqual(MIGRATION_NAMES);
    expect(await appliedMigrations(first.db)).toEqual(MIGRATION_NAMES);
    const organizations = await sql<{ count: number }>`
      select count(*) as count from information_schema.tables
      where table_schema = 'public' and table_name = 'organizations'`.execute(first.db);
    expect(organizations.rows[0]?.count).toBe(1);
    expect(await migrateToLatest(second.db)).toEqual([]);
  });

  it('rolls every migration down and up again', async () => {
    const { db } = (await emptyDatabase()).connect();
    await migrateToLatest(db);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });

    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => [result.migrationName, result.direction, result.status])).toEqual(
      [...MIGRATION_NAMES].reverse().map((name) => [name, 'Down', 'Success']),
    );
    expect(await tableNames(db)).toEqual([]);
    expect(await appliedMigrations(db)).toEqual([]);

    expect(await migrateToLatest(db)).toEqual(MIGRATION_NAMES);
    expect(await tableNames(db)).toEqual(expect.arrayContaining(TENANCY_TABLES));
  });

  it("adds the reports' rollups of the rows counted before them (2026-11-29T1900), and takes them away down", async () => {
    const { db } = (await emptyDatabase()).connect();
    const rollups = '2026-11-29T1900_report_rollups';
    for (const name of MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf(rollups))) {
      await migrations[name]?.up(db);
    }
    const now = new Date().toISOString();
    await db.insertInto('organizations').values({ id: 'org', name: 'Acme', created_at: now, updated_at: now }).execute();
    const counts = (team: string, agent: string, day: string, created: number, backlog: number) => ({
      organization_id: 'org',
      ...{ team_id: team, agent_id: agent, day, created, closed: 0, reopened: 0, public_replies: 0, backlog_delta: backlog },
    });
    await db
      .insertInto('report_daily_counts')
      .values([
        counts('t1', 'a1', '2026-01-12', 2, 2),
        counts('t1', '', '2026-01-12', 1, 1),
        counts('t2', 'a1', '2026-01-12', 4, -1),
      ])
      .execute();
    const bin = (team: string, agent: string, count: number) => ({
      ...{
        organization_id: 'org',
        team_id: team,
        agent_id: agent,
        day: '2026-01-12',
        metric: 'first_reply_calendar' as const,
        bin: 7,
        count,
      },
    });
    await db
      .insertInto('report_duration_bins')
      .values([bin('t1', 'a1', 3), bin('t2', 'a2', 5)])
      .execute();
    await migrations[rollups]?.up(db);

    const rollupRows = await db
      .selectFrom('report_daily_counts')
      .select(['team_id', 'created', 'backlog_delta'])
      .where('agent_id', '=', '*')
      .orderBy('team_id')
      .execute();
    expect(rollupRows.map((row) => [row.team_id, Number(row.created), Number(row.backlog_delta)])).toEqual([
      ['*', 7, 2],
      ['t1', 3, 3],
      ['t2', 4, -1],
    ]);
    const bins = await db
      .selectFrom('report_duration_bins')
      .select(['team_id', 'count'])
      .where('agent_id', '=', '*')
      .orderBy('team_id')
      .execute();
    expect(bins.map((row) => [row.team_id, Number(row.count)])).toEqual([
      ['*', 8],
      ['t1', 3],
      ['t2', 5],
    ]);
    await migrations[rollups]?.down?.(db);
    expect(await db.selectFrom('report_daily_counts').select('agent_id').where('agent_id', '=', '*').execute()).toEqual([]);
    expect(await db.selectFrom('report_daily_counts').select('agent_id').execute()).toHaveLength(3);
  });

  describe('each migration on its own', () => {
    // One database walks up through the migrations, each test round-tripping the next one on top of
    // the earlier ones, instead of a fresh database replaying every earlier migration per test
    // (quadratic: about 45 s on PostgreSQL for 47 migrations). The walk only moves on after a test
    // passes; a test that finds it elsewhere (the first one, one after a failure, or one picked with
    // -t) starts again from an empty database, so a failure still names its own migration.
    // biome-ignore lint/suspicious/noExplicitAny: the schema changes as it walks
    let walk: { db: Kysely<any>; applied: number } | undefined;
    const walkCleanups: (() => Promise<void>)[] = [];

    afterAll(async () => {
      for (const cleanup of walkCleanups.splice(0).reverse()) {
        await cleanup();
      }
    });

    /** A database with exactly the migrations before `index` applied. */
    async function databaseBefore(index: number) {
      if (walk?.applied !== index) {
        const database = await createEmptyDatabase(dialect);
        walkCleanups.push(() => database.drop());
        const handle = database.connect();
        walkCleanups.push(() => handle.close());
        for (const earlier of MIGRATION_NAMES.slice(0, index)) {
          await migrations[earlier]?.up(handle.db);
        }
        walk = { db: handle.db, applied: index };
      }
      return walk.db;
    }

    it.each(MIGRATION_NAMES)('%s: down then up round-trips on its own', async (name) => {
      const index = MIGRATION_NAMES.indexOf(name);
      const db = await databaseBefore(index);
      const before = await tableNames(db);
      const migration = migrations[name];
      await migration?.up(db);
      if (migration?.down) {
        const after = await tableNames(db);
        await migration.down(db);
        expect(await tableNames(db)).toEqual(before);
        await migration.up(db);
        expect(await tableNames(db)).toEqual(after);
      }
      if (walk) {
        walk.applied = index + 1;
      }
    });
  });
});
