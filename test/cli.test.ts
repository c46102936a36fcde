import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { main } from '../src/cli.js';
import { parseConfig } from '../src/config.js';
import { createDb } from '../src/db/connect.js';
import type { DB } from '../src/db/database.js';
import type { Dialect } from '../src/db/dialect.js';
import { fixedClock } from '../src/lib/clock.js';
import { createIdFactory } from '../src/lib/ids.js';
import { DIALECTS } from './dialects.js';
import { createTestDatabase, TEST_NOW, testConfig } from './harness.js';
import { adminQuery, uniqueName, withDatabase } from './test-databases.js';

interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

async function runCli(argv: string[], env: Record<string, string>): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

/** A database the CLI has never seen: an empty SQLite folder, or an empty PostgreSQL database. */
async function emptyDatabase(dialect: Dialect): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const postgres = inject('postgres');
    if (!postgres) {
      throw new Error('PostgreSQL is not available for this run');
    }
    const name = uniqueName('sb_cli_empty');
    await adminQuery(postgres.serverUrl, `create database "${name}"`);
    return {
      env: { DATABASE_URL: withDatabase(postgres.serverUrl, name) },
      drop: () => adminQuery(postgres.serverUrl, `drop database if exists "${name}" with (force)`),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
  return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const UNAUTHORIZED = { statusCode: 401, message: 'User is not authenticated!', error: 'Unauthorized' };

describe.each(DIALECTS)('switchboard CLI on %s', (dialect) => {
  let env: Record<string, string>;
  let db: Kysely<DB>;
  let app: FastifyInstance;
  let dropDatabase: () => Promise<void>;

  const cli = (...argv: string[]) => runCli(argv, env);
  const me = (key: string) => app.inject({ url: '/v1/users/me', headers: { 'x-api-key': key } });

  /** Runs `org create --json` and checks it succeeded; returns its parsed output. */
  async function createOrg(name: string, adminEmail: string) {
    const run = await cli('org', 'create', '--name', name, '--admin-email', adminEmail, '--json');
    expect(run).toMatchObject({ code: 0, err: [] });
    expect(run.out).toHaveLength(1);
    return JSON.parse(run.out[0] ?? '') as { organizationId: string; userId: string; apiKey: string };
  }

  beforeAll(async () => {
    if (dialect === 'postgres') {
      const database = await createTestDatabase('postgres');
      if (!database.url) {
        throw new Error('createTestDatabase gave no PostgreSQL URL');
      }
      env = { DATABASE_URL: database.url };
      db = database.db;
      dropDatabase = database.drop;
    } else {
      // An empty folder: the first command creates and migrates the database file.
      const dir = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
      env = { DATA_DIR: dir };
      const handle = createDb(parseConfig(env));
      db = handle.db;
      dropDatabase = async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      };
    }
    const clock = fixedClock(TEST_NOW);
    app = await buildApp({ config: testConfig(), db, clock, ids: createIdFactory(clock), log: pino({ level: 'silent' }) });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await dropDatabase?.();
  });

  it('org create --json prints one JSON line whose key works', async () => {
    const run = await cli('org', 'create', '--name', 'Acme', '--admin-email', 'a@acme.test', '--json');
    expect(run.code).toBe(0);
    expect(run.err).toEqual([]);
    expect(run.out).toHaveLength(1);
    expect(run.out[0]).not.toContain('\n');
    const created = JSON.parse(run.out[0] ?? '');
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'organizationId', 'userId']);
    expect(created.apiKey).toMatch(/^sbk_[a-z2-7]{8}_[\w-]{43}$/);

    const response = await me(created.apiKey);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      user: {
        id: created.userId,
        email: 'a@acme.test',
        name: 'a',
        userType: 'ORG_ADMIN',
        organizationId: created.organizationId,
      },
      organization: { id: created.organizationId, name: 'Acme' },
    });
  });

  it('org create without --json prints the key once, readably', async () => {
    const run = await cli('org', 'create', '--name', 'Umbrella', '--admin-email', 'boss@umbrella.test', '--admin-name', 'Boss');
    expect(run.code).toBe(0);
    const text = run.out.join('\n');
    expect(text).toMatch(/^Organization: [0-9A-Z]{26}$/m);
    const key = /API key \(shown only this once\): (sbk_\S+)$/m.exec(text)?.[1] ?? '';
    const response = await me(key);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.user).toMatchObject({ name: 'Boss', email: 'boss@umbrella.test' });
  });

  it('org create without --admin-email exits 2 with the usage', async () => {
    const run = await cli('org', 'create', '--name', 'Acme');
    expect(run.code).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err.join('\n')).toContain('Missing --admin-email');
    expect(run.err.join('\n')).toContain('Usage: switchboard <command>');
  });

  it('org create with a bad email or an unknown option exits 2', async () => {
    const badEmail = await cli('org', 'create', '--name', 'Acme', '--admin-email', 'not-an-email');
    expect(badEmail.code).toBe(2);
    expect(badEmail.err.join('\n')).toContain('Not an email address: not-an-email');
    const unknownOption = await cli('org', 'create', '--name', 'Acme', '--admin-email', 'x@acme.test', '--colour', 'red');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.err.join('\n')).toContain('--colour');
  });

  it('keys create --json gives a second working key for the user', async () => {
    const acme = await createOrg('Acme Two', 'admin@acme-two.test');
    const run = await cli('keys', 'create', '--email', 'admin@acme-two.test', '--json');
    expect(run).toMatchObject({ code: 0, err: [] });
    expect(run.out).toHaveLength(1);
    const issued = JSON.parse(run.out[0] ?? '');
    expect(issued).toEqual({
      organizationId: acme.organizationId,
      userId: acme.userId,
      apiKey: expect.stringMatching(/^sbk_/),
      prefix: expect.any(String),
    });
    expect(issued.prefix).toBe(issued.apiKey.slice(0, 12));
    expect(issued.apiKey).not.toBe(acme.apiKey);
    expect((await me(issued.apiKey)).json().data.user.id).toBe(acme.userId);
    expect((await me(acme.apiKey)).statusCode).toBe(200);
  });

  it('keys create for an unknown email exits 1', async () => {
    const run = await cli('keys', 'create', '--email', 'nobody@nowhere.test');
    expect(run.code).toBe(1);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual(['No user with email nobody@nowhere.test']);
  });

  it('keys create needs --org when the email is in several organizations', async () => {
    const globex = await createOrg('Globex', 'shared@both.test');
    const initech = await createOrg('Initech', 'shared@both.test');

    const ambiguous = await cli('keys', 'create', '--email', 'shared@both.test', '--json');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.out).toEqual([]);
    expect(ambiguous.err).toHaveLength(1);
    expect(ambiguous.err[0]).toContain('--org');
    expect(ambiguous.err[0]).toContain(globex.organizationId);
    expect(ambiguous.err[0]).toContain(initech.organizationId);

    const chosen = await cli('keys', 'create', '--email', 'shared@both.test', '--org', initech.organizationId, '--json');
    expect(chosen.code).toBe(0);
    const issued = JSON.parse(chosen.out[0] ?? '');
    expect(issued).toMatchObject({ organizationId: initech.organizationId, userId: initech.userId });
    expect((await me(issued.apiKey)).json().data.organization.name).toBe('Initech');

    const otherOrg = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const wrongOrg = await cli('keys', 'create', '--email', 'shared@both.test', '--org', otherOrg);
    expect(wrongOrg.code).toBe(1);
    expect(wrongOrg.err).toEqual([`No user with email shared@both.test in organization ${otherOrg}`]);
  });

  it('keys revoke PREFIX revokes that key only, once', async () => {
    const acme = await createOrg('Revokers', 'admin@revokers.test');
    const second = JSON.parse((await cli('keys', 'create', '--email', 'admin@revokers.test', '--json')).out[0] ?? '');
    const prefix = acme.apiKey.slice(0, 12);
    expect(prefix).toMatch(/^sbk_[a-z2-7]{8}$/);
    expect((await me(acme.apiKey)).statusCode).toBe(200);

    const run = await cli('keys', 'revoke', prefix);
    expect(run.code).toBe(0);
    expect(run.err).toEqual([]);
    expect(run.out).toEqual([`Revoked ${prefix}. It stops working within 5 seconds.`]);
    const row = await db.selectFrom('api_keys').select(['revoked_at']).where('prefix', '=', prefix).executeTakeFirstOrThrow();
    expect(row.revoked_at).toEqual(expect.any(String));

    const revoked = await me(acme.apiKey);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual(UNAUTHORIZED);
    expect((await me(second.apiKey)).statusCode).toBe(200);

    const again = await cli('keys', 'revoke', prefix);
    expect(again.code).toBe(1);
    expect(again.err).toEqual([`No active API key with prefix ${prefix}`]);
  });

  it('keys revoke without exactly one prefix exits 2', async () => {
    expect((await cli('keys', 'revoke')).code).toBe(2);
    expect((await cli('keys', 'revoke', 'sbk_aaaaaaaa', 'sbk_bbbbbbbb')).code).toBe(2);
  });

  it('migrate applies the migrations once, then reports the database up to date', async () => {
    const empty = await emptyDatabase(dialect);
    try {
      const first = await runCli(['migrate'], empty.env);
      expect(first.code).toBe(0);
      expect(first.out).toHaveLength(1);
      expect(first.out[0]).toMatch(/^Applied \d+ migration\(s\): /);
      const second = await runCli(['migrate'], empty.env);
      expect(second).toEqual({ code: 0, out: ['Database is up to date.'], err: [] });
    } finally {
      await empty.drop();
    }
  });

  it('a bad environment exits 1 with one error line naming the variable', async () => {
    const run = await runCli(['migrate'], { ...env, PORT: 'abc' });
    expect(run.code).toBe(1);
    expect(run.out).toEqual([]);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).not.toContain('\n');
    expect(run.err[0]).toContain('PORT');
  });

  it('an unknown command exits 2 with the usage', async () => {
    for (const argv of [['frobnicate'], ['org', 'delete'], ['keys']]) {
      const run = await runCli(argv, env);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.out).toEqual([]);
      expect(run.err.join('\n')).toContain(`Unknown command: ${argv.join(' ')}`);
      expect(run.err.join('\n')).toContain('Usage: switchboard <command>');
    }
  });

  it('prints the usage for help (exit 0) and for no command (exit 2)', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.out.join('\n')).toContain('Usage: switchboard <command>');
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.out.join('\n')).toContain('Usage: switchboard <command>');
  });
});
