import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { TestProject } from 'vitest/node';
import { connectPostgres, connectSqlite } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { CONSOLE_BUILD_DIR } from '../src/web-console/console.plugin.js';
import { adminQuery, testDatabaseUrl, uniqueName, withDatabase } from './test-databases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    sqliteTemplate: string;
    /** Null when PostgreSQL is not reachable and not required. */
    postgres: { serverUrl: string; template: string } | null;
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function modificationOf(path: string): number {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

function newestModification(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );
}

/**
 * Migrates one template database per dialect; every test file copies it instead of migrating
 * again. PostgreSQL is required in CI (or with TEST_REQUIRE_POSTGRES=1); elsewhere an unreachable
 * server skips its half of the suite with one line saying so.
 */
export default async function setup(project: TestProject) {
  // The console's tests need its built files; `npm install` builds them, a fresh worktree may not
  // have, and the console's sources (or the rules it shares with the server) may have changed since.
  const consoleBuiltAt = modificationOf(join(CONSOLE_BUILD_DIR, 'index.html'));
  if (
    consoleBuiltAt === 0 ||
    newestModification(join(ROOT, 'web/src')) > consoleBuiltAt ||
    newestModification(join(ROOT, 'src/shared')) > consoleBuiltAt
  ) {
    execFileSync('npm', ['run', 'build:web'], { stdio: 'inherit' });
  }
  // The messenger's loader and panel, served from dist/widget/ (`npm run build:widget`), likewise.
  const widgetBuiltAt = modificationOf(join(ROOT, 'dist/widget/loader.js'));
  if (widgetBuiltAt === 0 || newestModification(join(ROOT, 'widget')) > widgetBuiltAt) {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-widget.ts'], { cwd: ROOT, stdio: 'inherit' });
  }
  // `bin/switchboard.js` runs dist/switchboard.js, which `npm install` builds; the sources may have
  // changed since (the type check is the test run's own, so only the bundling is repeated).
  if (newestModification(join(ROOT, 'src')) > modificationOf(join(ROOT, 'dist/switchboard.js'))) {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bundle-server.ts'], { cwd: ROOT, stdio: 'inherit' });
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-template-'));
  const sqliteTemplate = join(dir, 'template.db');
  const sqlite = connectSqlite(sqliteTemplate);
  await migrateToLatest(sqlite.db);
  await sqlite.close();
  // Fold the WAL into the file so a plain copy is the whole database.
  const raw = new Database(sqliteTemplate);
  raw.pragma('journal_mode = DELETE');
  raw.close();
  project.provide('sqliteTemplate', sqliteTemplate);

  const wanted = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',').includes('postgres');
  const required = wanted && (Boolean(process.env.CI) || process.env.TEST_REQUIRE_POSTGRES === '1');
  const serverUrl = testDatabaseUrl();
  let postgres: { serverUrl: string; template: string } | null = null;
  if (wanted) {
    const template = uniqueName('sb_template');
    try {
      await adminQuery(serverUrl, `create database "${template}"`);
      const handle = connectPostgres(withDatabase(serverUrl, template), 2);
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      postgres = { serverUrl, template };
    } catch (error) {
      const reason = (error as Error).message;
      if (required) {
        throw new Error(`PostgreSQL is required here but ${serverUrl} could not be prepared: ${reason}`);
      }
      console.warn(
        `PostgreSQL skipped: ${serverUrl} is not reachable (${reason}); set TEST_DATABASE_URL=postgres://user@host:port/db to run every test on PostgreSQL too.`,
      );
    }
  }
  project.provide('postgres', postgres);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (postgres) {
      await adminQuery(serverUrl, `drop database if exists "${postgres.template}" with (force)`);
    }
  };
}
