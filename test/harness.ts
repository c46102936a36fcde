import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, parseConfig } from '../src/config.js';
import { connectPostgres, connectSqlite, type DatabaseHandle } from '../src/db/connect.js';
import type { Dialect } from '../src/db/dialect.js';
import { type Clock, fixedClock } from '../src/lib/clock.js';
import { createIdFactory, type IdFactory } from '../src/lib/ids.js';
import { decodeSecretKey } from '../src/lib/secret-box.js';
import { createPostgresDatabase, createSqliteDatabase } from './test-databases.js';

export const TEST_NOW = '2026-01-15T09:00:00.000Z';

/** A fresh, migrated database of the dialect; `drop` removes it. */
export async function createTestDatabase(
  dialect: Dialect,
): Promise<DatabaseHandle & { drop(): Promise<void>; url?: string; dataDir?: string }> {
  if (dialect === 'postgres') {
    const postgres = inject('postgres');
    if (!postgres) {
      throw new Error('PostgreSQL is not available for this run');
    }
    const database = await createPostgresDatabase(postgres.serverUrl, postgres.template);
    const handle = connectPostgres(database.url, 5);
    return {
      ...handle,
      url: database.url,
      drop: async () => {
        await handle.close();
        await database.drop();
      },
    };
  }
  const { file, dir } = createSqliteDatabase(inject('sqliteTemplate'));
  const handle = connectSqlite(file);
  return {
    ...handle,
    dataDir: dir,
    drop: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: DatabaseHandle['db'];
  dialect: Dialect;
  clock: ReturnType<typeof fixedClock>;
  ids: IdFactory;
  config: Config;
  /** The app's `SECRET_KEY` (random unless the test's env sets one): workers the test builds sign with it too. */
  secretKey: Buffer;
  /** PostgreSQL only: the test database's URL, for a second "process" on the same data. */
  url?: string;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Rate limits of failed authentications are off unless a test turns them on: suites send many bad keys on purpose.
  return parseConfig({
    PUBLIC_BASE_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    API_KEY_CACHE_SECONDS: '0',
    AUTH_FAILURES_PER_MINUTE: '0',
    ...overrides,
  });
}

/** The whole app on a fresh database, with a fixed clock and a silent logger. */
export async function buildTestApp(
  dialect: Dialect,
  options: { env?: Record<string, string>; clock?: Clock; log?: pino.Logger } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const clock = fixedClock(TEST_NOW);
  const ids = createIdFactory(clock);
  const config = testConfig(options.env);
  const secretKey = config.SECRET_KEY ? decodeSecretKey(config.SECRET_KEY) : randomBytes(32);
  const app = await buildApp({
    config,
    secretKey,
    db: database.db,
    clock: options.clock ?? clock,
    ids,
    log: options.log ?? pino({ level: 'silent' }),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    dialect,
    clock,
    ids,
    config,
    secretKey,
    url: database.url,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/**
 * The apps that stand for the server processes of a concurrency test: on PostgreSQL the harness's
 * app and a second one on its own connection pool, as a second process on the same database; on
 * SQLite (one writer, one process) the harness's app alone.
 */
export async function serverProcesses(harness: TestApp): Promise<{ apps: FastifyInstance[]; close(): Promise<void> }> {
  if (harness.dialect !== 'postgres' || !harness.url) {
    return { apps: [harness.app], close: async () => undefined };
  }
  const handle = connectPostgres(harness.url, 5);
  const second = await buildApp({
    config: harness.config,
    db: handle.db,
    clock: harness.clock,
    secretKey: harness.secretKey,
    log: pino({ level: 'silent' }),
  });
  return {
    apps: [harness.app, second],
    close: async () => {
      await second.close();
      await handle.close();
    },
  };
}
