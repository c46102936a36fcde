import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, parseConfig } from './config.js';
import { createDb, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { createLogger } from './http/logging.js';
import { systemClock } from './lib/clock.js';
import { createIdFactory } from './lib/ids.js';
import { createOrganizationWithAdmin } from './platform/organizations/organization.service.js';
import { issueApiKey, revokeApiKey } from './platform/users/api-key.service.js';
import { findUsersByEmail } from './platform/users/user.repository.js';
import { closeOnSignals, startServer } from './server.js';

const USAGE = `Usage: switchboard <command>

Commands:
  serve                                   apply pending migrations and serve the three APIs
  migrate                                 apply pending migrations
  org create --name N --admin-email E [--admin-name N] [--json]
                                          create an organization, its admin and an API key
  keys create --email E [--org ID] [--json]
                                          create another API key for a user
  keys revoke PREFIX                      revoke the key with this prefix (sbk_xxxxxxxx)

Every command reads the same environment variables as the server (see README).`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

class UsageError extends Error {}

/** Runs one command; returns the process exit code. */
export async function main(argv: string[], env: Record<string, string | undefined>, io: CliIo = consoleIo): Promise<number> {
  const [command, subcommand] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return command ? 0 : 2;
  }
  let config: Config;
  try {
    config = parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
  try {
    switch (command) {
      case 'serve':
        return await serve(config, io);
      case 'migrate':
        return await withDatabase(config, async (_handle, applied) => {
          io.out(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.');
          return 0;
        });
      case 'org':
        if (subcommand === 'create') {
          return await createOrganization(config, argv.slice(2), io);
        }
        break;
      case 'keys':
        if (subcommand === 'create') {
          return await createKey(config, argv.slice(2), io);
        }
        if (subcommand === 'revoke') {
          return await revokeKey(config, argv.slice(2), io);
        }
        break;
    }
    throw new UsageError(`Unknown command: ${argv.slice(0, 2).join(' ')}`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`switchboard: ${(error as Error).message}`);
    return 1;
  }
}

async function serve(config: Config, io: CliIo): Promise<number> {
  const log = createLogger(config);
  const server = await startServer(config, log, io.out);
  await closeOnSignals(server, log);
  return 0;
}

/** Opens the database and brings it up to date before a command touches it. */
async function withDatabase<T>(config: Config, run: (handle: DatabaseHandle, applied: string[]) => Promise<T>): Promise<T> {
  const handle = createDb(config);
  try {
    const applied = await migrateToLatest(handle.db);
    return await run(handle, applied);
  } finally {
    await handle.close();
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UsageError(`Missing --${name}`);
  }
  return value.trim();
}

function requireEmail(value: string): string {
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) {
    throw new UsageError(`Not an email address: ${value}`);
  }
  return value;
}

async function createOrganization(config: Config, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
      json: { type: 'boolean' },
    },
    strict: true,
  });
  const name = required(values, 'name');
  const adminEmail = requireEmail(required(values, 'admin-email'));
  return withDatabase(config, async ({ db }) => {
    const clock = systemClock;
    const created = await createOrganizationWithAdmin(
      { db, clock, ids: createIdFactory(clock) },
      { name, adminEmail, adminName: values['admin-name']?.trim() || undefined },
    );
    if (values.json) {
      io.out(JSON.stringify({ organizationId: created.organizationId, userId: created.userId, apiKey: created.apiKey }));
    } else {
      io.out(
        `Organization: ${created.organizationId}\nAdmin user:   ${created.userId}\nAPI key (shown only this once): ${created.apiKey}`,
      );
    }
    return 0;
  });
}

async function createKey(config: Config, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, org: { type: 'string' }, json: { type: 'boolean' } },
    strict: true,
  });
  const email = requireEmail(required(values, 'email'));
  return withDatabase(config, async ({ db }) => {
    const users = (await findUsersByEmail(db, email)).filter((user) => !values.org || user.organization_id === values.org);
    if (users.length === 0) {
      io.err(`No user with email ${email}${values.org ? ` in organization ${values.org}` : ''}`);
      return 1;
    }
    const [user] = users;
    if (users.length > 1 || !user) {
      io.err(`${email} belongs to several organizations (${users.map((u) => u.organization_id).join(', ')}): add --org ID`);
      return 1;
    }
    const clock = systemClock;
    const key = await issueApiKey(
      db,
      { clock, ids: createIdFactory(clock) },
      { organizationId: user.organization_id, userId: user.id },
    );
    if (values.json) {
      io.out(JSON.stringify({ organizationId: user.organization_id, userId: user.id, apiKey: key.apiKey, prefix: key.prefix }));
    } else {
      io.out(`API key for ${email} (shown only this once): ${key.apiKey}`);
    }
    return 0;
  });
}

async function revokeKey(config: Config, args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, strict: true });
  const [prefix] = positionals;
  if (!prefix || positionals.length > 1) {
    throw new UsageError('Give exactly one key prefix');
  }
  return withDatabase(config, async ({ db }) => {
    const revoked = await revokeApiKey(db, systemClock, prefix);
    if (!revoked) {
      io.err(`No active API key with prefix ${prefix}`);
      return 1;
    }
    io.out(`Revoked ${prefix}. It stops working within ${config.API_KEY_CACHE_SECONDS} seconds.`);
    return 0;
  });
}

/** True when this file is the process's script (`tsx src/cli.ts`, as `npm run dev` runs it). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  try {
    return script !== undefined && import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

// `bin/switchboard.js` imports this module and calls `main` itself; run directly, run it here.
if (isEntryPoint()) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
