import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { main } from '../src/cli.js';
import { parseConfig } from '../src/config.js';
import { connectPostgres, createDb } from '../src/db/connect.js';
import type { DB } from '../src/db/database.js';
import type { Dialect } from '../src/db/dialect.js';
import { fixedClock } from '../src/lib/clock.js';
import { createIdFactory } from '../src/lib/ids.js';
import { DIALECTS } from './dialects.js';
import { freePort } from './free-port.js';
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

/** The tables of a database made by `emptyDatabase`: none until a command migrates it. */
async function tablesOf(dialect: Dialect, env: Record<string, string>): Promise<string[]> {
  if (dialect === 'sqlite') {
    return existsSync(join(env.DATA_DIR ?? '', 'switchboard.db')) ? ['switchboard.db'] : [];
  }
  const handle = connectPostgres(env.DATABASE_URL ?? '', 1);
  try {
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public'`.execute(handle.db);
    return rows.map((row) => row.table_name);
  } finally {
    await handle.close();
  }
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

  it('org create without --admin-email exits 2 with its usage', async () => {
    const run = await cli('org', 'create', '--name', 'Acme');
    expect(run.code).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err.join('\n')).toContain('Missing --admin-email');
    expect(run.err.join('\n')).toContain('Usage: switchboard orgs create --name N --admin-email E');
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

  it('users invite prints a link that lets the user choose a password once, by email or by id', async () => {
    const inviters = await createOrg('Inviters', 'boss@inviters.test');
    const run = await cli('users', 'invite', 'boss@inviters.test');
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(run.err).toEqual([]);
    expect(run.out[0]).toMatch(/^Invitation link for boss@inviters\.test \(works once, until \d{4}-\d{2}-\d{2}T[\d:.]+Z\):$/);
    const token = /^http:\/\/127\.0\.0\.1:3000\/app\/accept-invite\?token=([\w-]{43})$/.exec(run.out[1] ?? '')?.[1] ?? '';
    const accept = () =>
      app.inject({ method: 'POST', url: '/v1/auth/invitations/accept', payload: { token, password: 'the boss chose this one' } });
    const accepted = await accept();
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data.user.id).toBe(inviters.userId);
    expect((await accept()).statusCode).toBe(400);

    const byId = await cli('users', 'invite', inviters.userId, '--org', inviters.organizationId, '--json');
    expect(byId.code).toBe(0);
    expect(JSON.parse(byId.out[0] ?? '')).toEqual({
      organizationId: inviters.organizationId,
      userId: inviters.userId,
      email: 'boss@inviters.test',
      link: expect.stringMatching(/\/app\/accept-invite\?token=[\w-]{43}$/),
      expiresAt: expect.any(String),
    });
    // Printing a link emails nothing.
    const queued = await db
      .selectFrom('email_outbox')
      .select('id')
      .where('organization_id', '=', inviters.organizationId)
      .execute();
    expect(queued).toEqual([]);
  });

  it('users invite of an unknown user exits 1, and without a user exits 2', async () => {
    const unknown = await cli('users', 'invite', 'nobody@nowhere.test');
    expect(unknown).toEqual({ code: 1, out: [], err: ['No user with email nobody@nowhere.test'] });
    const unknownId = await cli('users', 'invite', '01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknownId).toEqual({ code: 1, out: [], err: ['No user 01ARZ3NDEKTSV4RRFFQ69G5FAV'] });
    expect((await cli('users', 'invite')).code).toBe(2);
    expect((await cli('users', 'invite', 'not an email')).code).toBe(2);
  });

  it('keys revoke PREFIX revokes that key only, once, and tells the running servers', async () => {
    const acme = await createOrg('Revokers', 'admin@revokers.test');
    const second = JSON.parse((await cli('keys', 'create', '--email', 'admin@revokers.test', '--json')).out[0] ?? '');
    const prefix = acme.apiKey.slice(0, 12);
    expect(prefix).toMatch(/^sbk_[a-z2-7]{8}$/);
    expect((await me(acme.apiKey)).statusCode).toBe(200);
    // A server that caches verified keys far longer than this test runs, with this key cached.
    const clock = fixedClock(TEST_NOW);
    const caching = await buildApp({
      config: testConfig({ API_KEY_CACHE_SECONDS: '300' }),
      db,
      clock,
      ids: createIdFactory(clock),
      log: pino({ level: 'silent' }),
    });
    const meOnCaching = async () =>
      (await caching.inject({ url: '/v1/users/me', headers: { 'x-api-key': acme.apiKey } })).statusCode;
    try {
      expect(await meOnCaching()).toBe(200);

      const run = await cli('keys', 'revoke', prefix);
      expect(run.code).toBe(0);
      expect(run.err).toEqual([]);
      const row = await db.selectFrom('api_keys').select(['revoked_at']).where('prefix', '=', prefix).executeTakeFirstOrThrow();
      expect(row.revoked_at).toEqual(expect.any(String));

      const revoked = await me(acme.apiKey);
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json()).toEqual(UNAUTHORIZED);
      expect((await me(second.apiKey)).statusCode).toBe(200);
      if (dialect === 'postgres') {
        expect(run.out).toEqual([`Revoked ${prefix}. It stops working at once.`]);
        // The command NOTIFYs after its commit; the server forgets the key when it hears.
        await expect.poll(meOnCaching, { timeout: 2_000, interval: 20 }).toBe(401);
      } else {
        // No notification crosses processes on SQLite: the message says what a running server does.
        expect(run.out).toEqual([
          `Revoked ${prefix}. A server already running on this SQLite database may accept it for up to 5 more seconds (API_KEY_CACHE_SECONDS).`,
        ]);
        expect(await meOnCaching()).toBe(200);
      }
    } finally {
      await caching.close();
    }

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

  it('an unknown command or option exits 2 with the usage on stderr', async () => {
    for (const argv of [['frobnicate'], ['org', 'delete'], ['keys', 'rotate', '--help']]) {
      const run = await runCli(argv, env);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.out).toEqual([]);
      expect(run.err.join('\n')).toContain(`Unknown command: ${argv.slice(0, 2).join(' ')}`);
      expect(run.err.join('\n')).toContain('Usage: switchboard <command>');
    }
    const unknownOption = await cli('--frobnicate');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.out).toEqual([]);
    expect(unknownOption.err.join('\n')).toContain('Unknown option: --frobnicate');
    const noSubcommand = await cli('keys');
    expect(noSubcommand.code).toBe(2);
    expect(noSubcommand.out).toEqual([]);
    expect(noSubcommand.err.join('\n')).toContain('Give a subcommand of keys.');
    expect(noSubcommand.err.join('\n')).toContain('Usage: switchboard keys <subcommand>');
    const unknownCommandOption = await cli('orgs', 'list', '--all');
    expect(unknownCommandOption.code).toBe(2);
    expect(unknownCommandOption.err.join('\n')).toContain('--all');
    expect(unknownCommandOption.err.join('\n')).toContain('Usage: switchboard orgs list [--json]');
  });

  it('prints the usage for help (exit 0) and, on stderr, for no command (exit 2)', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const help = await runCli(argv, env);
      expect(help.code, argv.join(' ')).toBe(0);
      expect(help.err).toEqual([]);
      expect(help.out.join('\n')).toContain('Usage: switchboard <command>');
      for (const command of ['serve', 'migrate', 'orgs create', 'orgs list', 'users create', 'users list', 'keys list']) {
        expect(help.out.join('\n')).toContain(`  ${command}`);
      }
    }
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.out).toEqual([]);
    expect(none.err.join('\n')).toContain('Usage: switchboard <command>');
  });

  it('--help on every command prints its own usage, exits 0 and touches nothing, even with a bad environment', async () => {
    const empty = await emptyDatabase(dialect);
    try {
      const cases: [string[], string][] = [
        [['serve', '--help'], 'Usage: switchboard serve'],
        [['migrate', '--help'], 'Usage: switchboard migrate'],
        [['migrate', '-h'], 'Usage: switchboard migrate'],
        [['org', 'create', '--help'], 'Usage: switchboard orgs create --name N --admin-email E'],
        [['orgs', 'create', '--name', 'Acme', '--admin-email', 'a@acme.test', '-h'], 'Usage: switchboard orgs create'],
        [['orgs', 'list', '--help'], 'Usage: switchboard orgs list [--json]'],
        [['users', 'create', '--help'], 'Usage: switchboard users create --email E --name N'],
        [['users', 'list', '--help'], 'Usage: switchboard users list [--org ID] [--json]'],
        [['keys', 'create', '--help'], 'Usage: switchboard keys create --email E [--org ID] [--json]'],
        [['keys', 'list', '--help'], 'Usage: switchboard keys list [--email E] [--org ID] [--json]'],
        [['keys', 'revoke', '--help'], 'Usage: switchboard keys revoke PREFIX'],
        [['demo', 'seed', '--help'], 'Usage: switchboard demo seed [--org ID] [--password P] [--json]'],
        [['config', 'export', '--help'], 'Usage: switchboard config export [--org ID] [--as EMAIL]'],
        [
          ['config', 'import', '--help'],
          'Usage: switchboard config import FILE [--org ID] [--as EMAIL] [--dry-run] [--prune] [--json]',
        ],
        [['keys', '--help'], 'Usage: switchboard keys <subcommand>'],
        [['help', 'users', 'create'], 'Usage: switchboard users create'],
      ];
      for (const [argv, usage] of cases) {
        // PORT=abc would stop any command that got as far as reading its configuration.
        const run = await runCli(argv, { ...empty.env, PORT: 'abc' });
        expect(run, argv.join(' ')).toMatchObject({ code: 0, err: [] });
        expect(run.out.join('\n').startsWith(usage), argv.join(' ')).toBe(true);
        expect(run.out.join('\n')).toContain('-h, --help');
      }
      // `serve --help` returned at once, so no server is running; and nothing reached the database.
      expect(await tablesOf(dialect, empty.env)).toEqual([]);
    } finally {
      await empty.drop();
    }
  });

  it('--version and -v print the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    for (const flag of ['--version', '-v']) {
      expect(await runCli([flag], { PORT: 'abc' })).toEqual({ code: 0, out: [version], err: [] });
    }
  });

  it('orgs list shows every organization, as a table or as JSON', async () => {
    const first = await createOrg('Listed One', 'one@listed.test');
    const second = await createOrg('Listed Two', 'two@listed.test');
    const json = await cli('orgs', 'list', '--json');
    expect(json).toMatchObject({ code: 0, err: [] });
    expect(json.out).toHaveLength(1);
    const organizations = JSON.parse(json.out[0] ?? '') as Record<string, string>[];
    expect(organizations).toContainEqual({ id: first.organizationId, name: 'Listed One', createdAt: expect.any(String) });
    expect(organizations).toContainEqual({ id: second.organizationId, name: 'Listed Two', createdAt: expect.any(String) });
    for (const organization of organizations) {
      expect(Object.keys(organization).sort()).toEqual(['createdAt', 'id', 'name']);
    }

    const table = await cli('orgs', 'list');
    expect(table.code).toBe(0);
    expect(table.out[0]).toMatch(/^ID\s+NAME\s+CREATED AT$/);
    expect(table.out).toHaveLength(organizations.length + 1);
    expect(table.out.find((line) => line.startsWith(first.organizationId))).toContain('Listed One');
  });

  it('users create adds a user by the API rules; --org is needed when there are several organizations', async () => {
    const wayne = await createOrg('Wayne', 'bruce@wayne.test');
    const ambiguous = await cli('users', 'create', '--email', 'alfred@wayne.test', '--name', 'Alfred');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.out).toEqual([]);
    expect(ambiguous.err).toHaveLength(1);
    expect(ambiguous.err[0]).toContain('add --org ID');

    const member = await cli(
      'users',
      'create',
      '--email',
      'alfred@wayne.test',
      '--name',
      ' Alfred ',
      '--org',
      wayne.organizationId,
      '--json',
    );
    expect(member).toMatchObject({ code: 0, err: [] });
    const created = JSON.parse(member.out[0] ?? '');
    expect(created).toMatchObject({
      email: 'alfred@wayne.test',
      name: 'Alfred',
      userType: 'ORG_MEMBER',
      organizationId: wayne.organizationId,
    });
    const admin = await cli(
      'users',
      'create',
      '--email',
      'lucius@wayne.test',
      '--name',
      'Lucius',
      '--type',
      'admin',
      '--org',
      wayne.organizationId,
    );
    expect(admin.code).toBe(0);
    expect(admin.out.join('\n')).toContain('lucius@wayne.test, ORG_ADMIN');

    const listed = await app.inject({ url: '/v1/users/list', headers: { 'x-api-key': wayne.apiKey } });
    expect(listed.statusCode).toBe(200);
    const users = listed.json().data as { id: string; email: string; userType: string }[];
    expect(users.map((user) => [user.email, user.userType])).toEqual([
      ['bruce@wayne.test', 'ORG_ADMIN'],
      ['alfred@wayne.test', 'ORG_MEMBER'],
      ['lucius@wayne.test', 'ORG_ADMIN'],
    ]);
    expect(users.find((user) => user.email === 'alfred@wayne.test')?.id).toBe(created.id);

    const duplicate = await cli(
      'users',
      'create',
      '--email',
      'ALFRED@wayne.test',
      '--name',
      'Again',
      '--org',
      wayne.organizationId,
    );
    expect(duplicate).toEqual({ code: 1, out: [], err: ['User with this email already exists!'] });
    const elsewhere = await createOrg('Elsewhere', 'boss@elsewhere.test');
    const sameEmailOtherOrg = await cli(
      'users',
      'create',
      '--email',
      'alfred@wayne.test',
      '--name',
      'Alfred',
      '--org',
      elsewhere.organizationId,
    );
    expect(sameEmailOtherOrg.code).toBe(0);
  });

  it('users create rejects bad input (exit 2) and an unknown organization (exit 1)', async () => {
    const org = await createOrg('Strict', 'admin@strict.test');
    const orgArgs = ['--org', org.organizationId];
    const usage = [
      [['users', 'create', '--name', 'No Email', ...orgArgs], 'Missing --email'],
      [['users', 'create', '--email', 'x@strict.test', ...orgArgs], 'Missing --name'],
      [['users', 'create', '--email', 'not-an-email', '--name', 'X', ...orgArgs], '--email must match format "email"'],
      [
        ['users', 'create', '--email', 'x@strict.test', '--name', 'X', '--type', 'owner', ...orgArgs],
        '--type must be admin or member, not owner',
      ],
      [['users', 'create', '--email', 'x@strict.test', '--name', 'X', '--colour', 'red', ...orgArgs], '--colour'],
    ] as const;
    for (const [argv, message] of usage) {
      const run = await runCli([...argv], env);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.out).toEqual([]);
      expect(run.err.join('\n')).toContain(message);
      expect(run.err.join('\n')).toContain('Usage: switchboard users create');
    }
    const unknownOrg = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const run = await cli('users', 'create', '--email', 'x@strict.test', '--name', 'X', '--org', unknownOrg);
    expect(run).toEqual({ code: 1, out: [], err: [`No organization ${unknownOrg} (see switchboard orgs list)`] });
    const listed = await app.inject({ url: '/v1/users/list', headers: { 'x-api-key': org.apiKey } });
    expect(listed.json().data.map((user: { email: string }) => user.email)).toEqual(['admin@strict.test']);
  });

  it('users list shows one organization with --org, or every organization', async () => {
    const stark = await createOrg('Stark', 'tony@stark.test');
    const oscorp = await createOrg('Oscorp', 'norman@oscorp.test');
    expect(
      (await cli('users', 'create', '--email', 'pepper@stark.test', '--name', 'Pepper', '--org', stark.organizationId)).code,
    ).toBe(0);

    const one = await cli('users', 'list', '--org', stark.organizationId, '--json');
    expect(one).toMatchObject({ code: 0, err: [] });
    const users = JSON.parse(one.out[0] ?? '') as Record<string, string>[];
    expect(users).toEqual([
      {
        id: stark.userId,
        email: 'tony@stark.test',
        name: 'tony',
        userType: 'ORG_ADMIN',
        organizationId: stark.organizationId,
        createdAt: expect.any(String),
      },
      {
        id: expect.any(String),
        email: 'pepper@stark.test',
        name: 'Pepper',
        userType: 'ORG_MEMBER',
        organizationId: stark.organizationId,
        createdAt: expect.any(String),
      },
    ]);

    const all = JSON.parse((await cli('users', 'list', '--json')).out[0] ?? '') as Record<string, string>[];
    expect(all.map((user) => user.email)).toEqual(
      expect.arrayContaining(['tony@stark.test', 'pepper@stark.test', 'norman@oscorp.test']),
    );
    expect(all.find((user) => user.email === 'norman@oscorp.test')?.organizationId).toBe(oscorp.organizationId);

    const table = await cli('users', 'list', '--org', oscorp.organizationId);
    expect(table.out[0]).toMatch(/^ID\s+EMAIL\s+NAME\s+USER TYPE\s+ORGANIZATION ID\s+CREATED AT$/);
    expect(table.out).toHaveLength(2);
    expect(table.out[1]).toContain('norman@oscorp.test');

    const unknown = await cli('users', 'list', '--org', '01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toEqual(['No organization 01ARZ3NDEKTSV4RRFFQ69G5FAV (see switchboard orgs list)']);
  });

  it('keys list shows prefixes, owners and revocations, never a key or its hash', async () => {
    const umbrella = await createOrg('Keyed', 'admin@keyed.test');
    const second = JSON.parse((await cli('keys', 'create', '--email', 'admin@keyed.test', '--json')).out[0] ?? '');
    const other = await createOrg('Other Keyed', 'admin@other-keyed.test');
    const firstPrefix = umbrella.apiKey.slice(0, 12);
    expect((await cli('keys', 'revoke', firstPrefix)).code).toBe(0);

    const run = await cli('keys', 'list', '--org', umbrella.organizationId, '--json');
    expect(run).toMatchObject({ code: 0, err: [] });
    expect(JSON.parse(run.out[0] ?? '')).toEqual([
      {
        prefix: firstPrefix,
        email: 'admin@keyed.test',
        userId: umbrella.userId,
        organizationId: umbrella.organizationId,
        createdAt: expect.any(String),
        revokedAt: expect.any(String),
      },
      {
        prefix: second.prefix,
        email: 'admin@keyed.test',
        userId: umbrella.userId,
        organizationId: umbrella.organizationId,
        createdAt: expect.any(String),
        revokedAt: null,
      },
    ]);
    const hashes = await db.selectFrom('api_keys').select('key_hash').where('user_id', '=', umbrella.userId).execute();
    const table = await cli('keys', 'list', '--email', 'admin@keyed.test');
    expect(table.out[0]).toMatch(/^PREFIX\s+EMAIL\s+USER ID\s+ORGANIZATION ID\s+CREATED AT\s+REVOKED AT$/);
    expect(table.out).toHaveLength(3);
    for (const output of [run.out.join('\n'), table.out.join('\n')]) {
      expect(output).not.toContain(umbrella.apiKey.slice(13));
      expect(output).not.toContain(second.apiKey.slice(13));
      for (const { key_hash } of hashes) {
        expect(output).not.toContain(key_hash);
      }
      expect(output).not.toContain(other.apiKey.slice(0, 12));
    }

    const unknownEmail = await cli('keys', 'list', '--email', 'nobody@keyed.test');
    expect(unknownEmail).toEqual({ code: 1, out: [], err: ['No user with email nobody@keyed.test'] });
    const wrongOrg = await cli('keys', 'list', '--email', 'admin@keyed.test', '--org', other.organizationId, '--json');
    expect(wrongOrg.code).toBe(1);
    expect(wrongOrg.err).toEqual([`No user with email admin@keyed.test in organization ${other.organizationId}`]);
    const badEmail = await cli('keys', 'list', '--email', 'not-an-email');
    expect(badEmail.code).toBe(2);
  });

  it('config export prints the set-up as JSON; config import --dry-run lists the changes and writes nothing', async () => {
    const acme = await createOrg('Configured', 'admin@configured.test');
    const headers = { 'x-api-key': acme.apiKey };
    // The CLI seals what it writes (a webhook's secret) with the server's key, which PostgreSQL needs given.
    const configCli = (...argv: string[]) => runCli(argv, { ...env, SECRET_KEY: '5e'.repeat(32) });
    const teamNames = async () =>
      ((await app.inject({ url: '/v1/teams', headers })).json().data as { name: string }[]).map((team) => team.name);
    const desk = await app.inject({ method: 'POST', url: '/v1/teams', headers, payload: { name: 'Desk', identifier: 'DSK' } });
    expect(desk.statusCode).toBe(201);
    const tag = await app.inject({
      method: 'POST',
      url: `/v1/teams/${desk.json().data.id}/tags`,
      headers,
      payload: { name: 'vip' },
    });
    expect(tag.statusCode).toBe(201);

    const exported = await configCli('config', 'export', '--org', acme.organizationId);
    expect(exported).toMatchObject({ code: 0, err: [] });
    const document = JSON.parse(exported.out.join('\n'));
    expect(document).toEqual((await app.inject({ url: '/v1/config/export', headers })).json().data);
    expect(document.teamTags).toEqual([{ team: 'Desk', name: 'vip', color: null, type: 'ticket', description: null }]);

    const dir = mkdtempSync(join(tmpdir(), 'switchboard-config-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, exported.out.join('\n'));
      expect(await configCli('config', 'import', file, '--org', acme.organizationId, '--dry-run')).toEqual({
        code: 0,
        out: ['No changes: the organization holds what the document says.'],
        err: [],
      });
      writeFileSync(
        file,
        JSON.stringify({ ...document, teams: [...document.teams, { name: 'Escalations', identifier: 'ESC' }] }),
      );
      expect(await configCli('config', 'import', file, '--org', acme.organizationId, '--dry-run')).toEqual({
        code: 0,
        out: ['create team Escalations (name, identifier)', 'Dry run: 1 change, nothing written.'],
        err: [],
      });
      expect(await teamNames()).toEqual(['Desk']);
      const applied = await configCli('config', 'import', file, '--org', acme.organizationId, '--json');
      expect(applied).toMatchObject({ code: 0, err: [] });
      expect(JSON.parse(applied.out[0] ?? '')).toEqual({
        applied: true,
        changes: [{ kind: 'team', name: 'Escalations', action: 'create', fields: ['name', 'identifier'] }],
      });
      expect(await teamNames()).toEqual(['Desk', 'Escalations']);

      writeFileSync(file, JSON.stringify({ ...document, version: 2 }));
      expect(await configCli('config', 'import', file, '--org', acme.organizationId)).toEqual({
        code: 1,
        out: [],
        err: [
          'The document is refused; nothing was written:\n  version must be 1: this instance reads version 1 documents (got 2)',
        ],
      });
      const notAnAdmin = await configCli('config', 'export', '--org', acme.organizationId, '--as', 'nobody@configured.test');
      expect(notAnAdmin).toEqual({
        code: 1,
        out: [],
        err: [`nobody@configured.test is not an admin of Configured (${acme.organizationId})`],
      });
      const missing = await configCli('config', 'import', join(dir, 'missing.json'), '--org', acme.organizationId);
      expect(missing.code).toBe(1);
      expect(missing.err[0]).toContain('Cannot read');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('users create picks the only organization by itself, and says when there is none', async () => {
    const empty = await emptyDatabase(dialect);
    try {
      const none = await runCli(['users', 'create', '--email', 'first@solo.test', '--name', 'First'], empty.env);
      expect(none).toEqual({ code: 1, out: [], err: ['There is no organization yet: create one with switchboard orgs create'] });
      const solo = JSON.parse(
        (await runCli(['orgs', 'create', '--name', 'Solo', '--admin-email', 'a@solo.test', '--json'], empty.env)).out[0] ?? '',
      );
      const created = await runCli(['users', 'create', '--email', 'first@solo.test', '--name', 'First', '--json'], empty.env);
      expect(created.code).toBe(0);
      expect(JSON.parse(created.out[0] ?? '')).toMatchObject({ email: 'first@solo.test', organizationId: solo.organizationId });
    } finally {
      await empty.drop();
    }
  });
});

describe.each(DIALECTS)('switchboard CLI with an unusable %s database', (dialect) => {
  const password = 'pw-that-must-never-show';

  /** A database that cannot be used, and the one line every command must answer with. */
  async function unusableDatabase(): Promise<{ env: Record<string, string>; message: string; cleanUp(): void }> {
    if (dialect === 'postgres') {
      const port = await freePort();
      return {
        env: { DATABASE_URL: `postgres://switchboard:${password}@127.0.0.1:${port}/switchboard`, SECRET_KEY: '5e'.repeat(32) },
        message: `cannot reach PostgreSQL at 127.0.0.1:${port}: connection refused`,
        cleanUp: () => undefined,
      };
    }
    // A file that is not a database where the database should be.
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
    writeFileSync(join(dir, 'switchboard.db'), 'not a database, just text that is long enough to fill a header page');
    return {
      env: { DATA_DIR: dir },
      message: `cannot open the SQLite database at ${join(dir, 'switchboard.db')}: file is not a database`,
      cleanUp: () => rmSync(dir, { recursive: true, force: true }),
    };
  }

  it('every command that needs the database says it cannot reach it, in one line, and exits 1', async () => {
    const database = await unusableDatabase();
    try {
      const commands = [
        ['serve'],
        ['migrate'],
        ['orgs', 'create', '--name', 'Acme', '--admin-email', 'a@acme.test'],
        ['orgs', 'list'],
        ['users', 'create', '--email', 'b@acme.test', '--name', 'B'],
        ['users', 'list'],
        ['keys', 'create', '--email', 'a@acme.test'],
        ['keys', 'list', '--json'],
        ['keys', 'revoke', 'sbk_aaaaaaaa'],
        ['config', 'export'],
      ];
      for (const argv of commands) {
        const run = await runCli(argv, { ...database.env, PORT: String(await freePort()), LOG_LEVEL: 'silent' });
        expect(run, argv.join(' ')).toEqual({ code: 1, out: [], err: [database.message] });
        expect(run.err.join('\n')).not.toContain(password);
      }
    } finally {
      database.cleanUp();
    }
  });

  if (dialect === 'sqlite') {
    it('a DATA_DIR that cannot hold the database file is named', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
      const file = join(dir, 'not-a-folder');
      writeFileSync(file, 'x');
      try {
        expect(await runCli(['migrate'], { DATA_DIR: file })).toEqual({
          code: 1,
          out: [],
          err: [`cannot open the SQLite database at ${join(file, 'switchboard.db')}: a part of the path is not a directory`],
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  if (dialect === 'postgres') {
    it('a database missing on a running server is named, not reported as a failed migration', async () => {
      const postgres = inject('postgres');
      const url = new URL(withDatabase(postgres?.serverUrl ?? '', 'sb_cli_no_such_database'));
      const run = await runCli(['migrate'], { DATABASE_URL: url.toString() });
      expect(run).toEqual({
        code: 1,
        out: [],
        err: [
          `cannot reach PostgreSQL at ${url.hostname}:${url.port || '5432'}: database "sb_cli_no_such_database" does not exist`,
        ],
      });
    });
  }
});
