import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { type Config, ConfigError, parseConfig } from './config.js';
import type { DB } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { DatabaseUnreachableError, openReachableDatabase } from './db/reachability.js';
import type { DemoSeedResult } from './demo/demo-seed.js';
import { createLogger } from './http/logging.js';
import { createValidatorCompiler } from './http/validation.js';
import { systemClock } from './lib/clock.js';
import type { CursorKey } from './lib/cursors.js';
import { AppError } from './lib/errors.js';
import { createIdFactory, ULID_PATTERN } from './lib/ids.js';
import { resolveSecretKey } from './lib/secret-box.js';
import { createInvitationLink } from './platform/auth/auth-token.service.js';
import { findOrganizationById, listOrganizations } from './platform/organizations/organization.repository.js';
import { createOrganizationWithAdmin } from './platform/organizations/organization.service.js';
import { listApiKeysWithOwners } from './platform/users/api-key.repository.js';
import { issueApiKey, revokeApiKey } from './platform/users/api-key.service.js';
import { findUserByIdInAnyOrganization, findUsersByEmail, listUsers } from './platform/users/user.repository.js';
import { CreateUserSchema } from './platform/users/user.schemas.js';
import { addUserToOrganization, toUser } from './platform/users/user.service.js';
import type { UserType } from './platform/users/user.table.js';
import { PROJECT_ROOT } from './project-root.js';
import { closeOnSignals, startServer } from './server.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** The command line is wrong: exit 2, with the usage. */
class UsageError extends Error {}

/** The command was understood but cannot be carried out (an unknown organization, say): exit 1. */
class CommandError extends Error {}

interface OptionSpec {
  name: string;
  /** The placeholder of the option's value; a flag without one takes none. */
  value?: string;
  required?: boolean;
  help: string;
}

interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positional?: string;
}

interface Command {
  /** The words that select it: `serve`, `keys create`. */
  name: string;
  summary: string;
  options: OptionSpec[];
  positional?: { name: string; help: string };
  run(args: ParsedArgs, config: Config, io: CliIo): Promise<number>;
}

const JSON_OPTION: OptionSpec = { name: 'json', help: 'print JSON (one line) instead of text' };
const ORG_OPTION: OptionSpec = { name: 'org', value: 'ID', help: 'the organization (needed when there are several)' };

/** `switchboard org create` keeps working beside `orgs create`. */
const GROUP_ALIASES: Record<string, string> = { org: 'orgs', user: 'users', key: 'keys' };

const USER_TYPES: Record<string, UserType> = { admin: 'ORG_ADMIN', member: 'ORG_MEMBER' };

const COMMANDS: Command[] = [
  {
    name: 'serve',
    summary: 'apply pending migrations and serve the three APIs (what `npm start` runs)',
    options: [],
    run: serve,
  },
  {
    name: 'migrate',
    summary: 'apply pending migrations',
    options: [],
    run: (_args, config, io) =>
      withDatabase(config, async (_db, applied) => {
        io.out(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.');
        return 0;
      }),
  },
  {
    name: 'orgs create',
    summary: 'create an organization, its admin and an API key (shown once)',
    options: [
      { name: 'name', value: 'N', required: true, help: 'name of the organization' },
      { name: 'admin-email', value: 'E', required: true, help: 'email of its first admin' },
      { name: 'admin-name', value: 'N', help: "the admin's name (default: the email's local part)" },
      JSON_OPTION,
    ],
    run: createOrganization,
  },
  {
    name: 'orgs list',
    summary: 'list the organizations',
    options: [JSON_OPTION],
    run: listOrganizationsCommand,
  },
  {
    name: 'users create',
    summary: 'add a user to an organization (the same rules as POST /v1/users)',
    options: [
      { name: 'email', value: 'E', required: true, help: 'email, unique in the organization' },
      { name: 'name', value: 'N', required: true, help: 'display name' },
      { name: 'type', value: 'admin|member', help: 'admin (ORG_ADMIN) or member (ORG_MEMBER, the default)' },
      ORG_OPTION,
      JSON_OPTION,
    ],
    run: createUserCommand,
  },
  {
    name: 'users list',
    summary: 'list the users of one organization, or of all',
    options: [{ name: 'org', value: 'ID', help: 'only this organization' }, JSON_OPTION],
    run: listUsersCommand,
  },
  {
    name: 'users invite',
    summary: 'print a link that lets a user choose a password and sign in (works once, for 7 days)',
    options: [{ name: 'org', value: 'ID', help: 'the organization (needed when the email is in several)' }, JSON_OPTION],
    positional: { name: 'USER', help: "the user's email or id" },
    run: inviteUserCommand,
  },
  {
    name: 'keys create',
    summary: 'create another API key for a user (shown once)',
    options: [
      { name: 'email', value: 'E', required: true, help: "the user's email" },
      { name: 'org', value: 'ID', help: 'the organization (needed when the email is in several)' },
      JSON_OPTION,
    ],
    run: createKey,
  },
  {
    name: 'keys list',
    summary: 'list API keys by prefix, never the key itself',
    options: [
      { name: 'email', value: 'E', help: "only this user's keys" },
      { name: 'org', value: 'ID', help: 'only this organization' },
      JSON_OPTION,
    ],
    run: listKeysCommand,
  },
  {
    name: 'demo seed',
    summary:
      'fill an organization with a demo support desk (teams, agents, accounts, contacts, tickets, a help center, an AI agent)',
    options: [
      { name: 'org', value: 'ID', help: 'seed this existing organization (default: a new organization named Demo)' },
      {
        name: 'password',
        value: 'P',
        help: "set the demo user's password (12 characters or more) instead of printing an invitation link",
      },
      JSON_OPTION,
    ],
    run: demoSeedCommand,
  },
  {
    name: 'keys revoke',
    summary: 'revoke the key with this prefix',
    options: [],
    positional: { name: 'PREFIX', help: 'the visible start of the key: sbk_ and 8 characters' },
    run: revokeKey,
  },
];

/** Runs one command; returns the process exit code. */
export async function main(argv: string[], env: Record<string, string | undefined>, io: CliIo = consoleIo): Promise<number> {
  let target: Target = { kind: 'root' };
  try {
    target = resolveTarget(argv);
    if (wantsHelp(argv)) {
      io.out(helpText(target));
      return 0;
    }
    if (target.kind === 'root') {
      if (argv[0] === '--version' || argv[0] === '-v') {
        io.out(packageVersion());
        return 0;
      }
      throw new UsageError(argv.length === 0 ? 'Give a command.' : `Unknown option: ${argv[0]}`);
    }
    if (target.kind === 'group') {
      throw new UsageError(`Give a subcommand of ${target.group}.`);
    }
    const args = parseCommandArgs(target.command, target.args);
    const config = parseConfig(env);
    return await target.command.run(args, config, io);
  } catch (error) {
    return report(error, target, io);
  }
}

type Target = { kind: 'root' } | { kind: 'group'; group: string } | { kind: 'command'; command: Command; args: string[] };

/** The command, group or nothing the leading words of `argv` name; unknown words are a usage error. */
function resolveTarget(argv: string[]): Target {
  const [first, second] = argv;
  if (first === undefined || first.startsWith('-')) {
    return { kind: 'root' };
  }
  if (first === 'help') {
    return argv.length === 1 ? { kind: 'root' } : resolveTarget(argv.slice(1));
  }
  const group = GROUP_ALIASES[first] ?? first;
  const topLevel = COMMANDS.find((command) => command.name === group);
  if (topLevel) {
    return { kind: 'command', command: topLevel, args: argv.slice(1) };
  }
  if (!COMMANDS.some((command) => command.name.startsWith(`${group} `))) {
    throw new UsageError(`Unknown command: ${first}`);
  }
  if (second === undefined || second.startsWith('-')) {
    return { kind: 'group', group };
  }
  const command = COMMANDS.find((candidate) => candidate.name === `${group} ${second}`);
  if (!command) {
    throw new UsageError(`Unknown command: ${first} ${second}`);
  }
  return { kind: 'command', command, args: argv.slice(2) };
}

/** `--help` or `-h` anywhere before a `--`, or the `help` command: print help and do nothing else. */
function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return argv[0] === 'help' || options.includes('--help') || options.includes('-h');
}

function parseCommandArgs(command: Command, args: string[]): ParsedArgs {
  const options = Object.fromEntries(
    command.options.map((option) => [option.name, { type: option.value ? ('string' as const) : ('boolean' as const) }]),
  );
  const { values, positionals } = parseArgs({ args, options, allowPositionals: Boolean(command.positional), strict: true });
  for (const option of command.options) {
    const value = values[option.name];
    if (option.required && (typeof value !== 'string' || value.trim() === '')) {
      throw new UsageError(`Missing --${option.name}`);
    }
  }
  if (command.positional && positionals.length !== 1) {
    throw new UsageError(`Give exactly one ${command.positional.name}`);
  }
  const trimmed = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? value.trim() : value]),
  );
  return { values: trimmed, positional: positionals[0] };
}

function report(error: unknown, target: Target, io: CliIo): number {
  const code = (error as { code?: unknown }).code;
  if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
    io.err(`${(error as Error).message}\n\n${helpText(target)}`);
    return 2;
  }
  if (
    error instanceof ConfigError ||
    error instanceof DatabaseUnreachableError ||
    error instanceof CommandError ||
    error instanceof AppError
  ) {
    io.err(error.message);
    return 1;
  }
  io.err(`switchboard: ${(error as Error).message}`);
  return 1;
}

function helpText(target: Target): string {
  if (target.kind === 'command') {
    return commandHelp(target.command);
  }
  if (target.kind === 'group') {
    const commands = COMMANDS.filter((command) => command.name.startsWith(`${target.group} `));
    return [
      `Usage: switchboard ${target.group} <subcommand> [options]`,
      '',
      'Subcommands:',
      ...commandList(commands),
      '',
      'Options:',
      `  -h, --help    show this help; after a subcommand, its help (switchboard ${target.group} list --help)`,
    ].join('\n');
  }
  return [
    'Usage: switchboard <command> [options]',
    '',
    'Commands:',
    ...commandList(COMMANDS),
    '',
    'Options:',
    "  -h, --help       show help; after a command, that command's help (switchboard keys create --help)",
    '  -v, --version    print the version',
    '',
    'Every command reads the same environment variables as the server (see README.md): DATABASE_URL',
    'selects PostgreSQL, else the SQLite file in DATA_DIR. Commands that use the database apply',
    'pending migrations first.',
  ].join('\n');
}

function synopsis(command: Command): string {
  const options = command.options.map((option) => {
    const text = option.value ? `--${option.name} ${option.value}` : `--${option.name}`;
    return option.required ? text : `[${text}]`;
  });
  return [command.name, ...(command.positional ? [command.positional.name] : []), ...options].join(' ');
}

function commandList(commands: Command[]): string[] {
  return commands.flatMap((command) => [`  ${synopsis(command)}`, `      ${command.summary}`]);
}

function commandHelp(command: Command): string {
  const rows: [string, string][] = [
    ...(command.positional ? [[command.positional.name, command.positional.help] as [string, string]] : []),
    ...command.options.map((option): [string, string] => [
      option.value ? `--${option.name} ${option.value}` : `--${option.name}`,
      option.help,
    ]),
    ['-h, --help', 'show this help'],
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `Usage: switchboard ${synopsis(command)}`,
    '',
    `${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
  ].join('\n');
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('package.json', PROJECT_ROOT), 'utf8')) as { version: string };
  return manifest.version;
}

async function serve(_args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  // Configuration first (PostgreSQL needs SECRET_KEY), then the database: each problem is reported
  // in one line before the server starts anything.
  resolveSecretKey(config);
  const probe = await openReachableDatabase(config);
  await probe.close();
  const log = createLogger(config);
  const server = await startServer(config, log, io.out);
  await closeOnSignals(server, log);
  return 0;
}

/** Opens the database, checks it answers and brings it up to date before a command touches it. */
async function withDatabase<T>(config: Config, run: (db: Kysely<DB>, applied: string[]) => Promise<T>): Promise<T> {
  const handle = await openReachableDatabase(config);
  try {
    const applied = await migrateToLatest(handle.db);
    return await run(handle.db, applied);
  } finally {
    await handle.close();
  }
}

function text(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function requireEmail(value: string): string {
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) {
    throw new UsageError(`Not an email address: ${value}`);
  }
  return value;
}

/** The organization a command acts on: `--org` when given (it must exist), else the only one there is. */
async function resolveOrganization(db: Kysely<DB>, organizationId: string | undefined): Promise<{ id: string; name: string }> {
  if (organizationId) {
    const organization = await findOrganizationById(db, organizationId);
    if (!organization) {
      throw new CommandError(`No organization ${organizationId} (see switchboard orgs list)`);
    }
    return organization;
  }
  const organizations = await listOrganizations(db);
  const [only] = organizations;
  if (!only) {
    throw new CommandError('There is no organization yet: create one with switchboard orgs create');
  }
  if (organizations.length > 1) {
    throw new CommandError(`There are ${organizations.length} organizations: add --org ID (see switchboard orgs list)`);
  }
  return only;
}

/** Rows as JSON (one line) or as an aligned table; `empty` stands in for a table without rows. */
function printRows(io: CliIo, args: ParsedArgs, rows: Record<string, string | null>[], empty: string): void {
  if (args.values.json) {
    io.out(JSON.stringify(rows));
    return;
  }
  const [first] = rows;
  if (!first) {
    io.out(empty);
    return;
  }
  const columns = Object.keys(first);
  const cells = [columns.map((column) => column.replace(/[A-Z]/g, (letter) => ` ${letter}`).toUpperCase())];
  cells.push(...rows.map((row) => columns.map((column) => row[column] ?? '-')));
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => line[index]?.length ?? 0)));
  for (const line of cells) {
    io.out(
      line
        .map((cell, index) => cell.padEnd(widths[index] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  }
}

async function createOrganization(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const name = text(args, 'name') ?? '';
  const adminEmail = requireEmail(text(args, 'admin-email') ?? '');
  return withDatabase(config, async (db) => {
    const clock = systemClock;
    const created = await createOrganizationWithAdmin(
      { db, clock, ids: createIdFactory(clock) },
      { name, adminEmail, adminName: text(args, 'admin-name') },
    );
    if (args.values.json) {
      io.out(JSON.stringify({ organizationId: created.organizationId, userId: created.userId, apiKey: created.apiKey }));
    } else {
      io.out(
        `Organization: ${created.organizationId}\nAdmin user:   ${created.userId}\nAPI key (shown only this once): ${created.apiKey}`,
      );
    }
    return 0;
  });
}

async function listOrganizationsCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  return withDatabase(config, async (db) => {
    const organizations = await listOrganizations(db);
    const rows = organizations.map((organization) => ({
      id: organization.id,
      name: organization.name,
      createdAt: organization.created_at,
    }));
    printRows(io, args, rows, 'No organizations yet.');
    return 0;
  });
}

/** The user checked against the schema of `POST /v1/users`, with each problem named by its option. */
function newUserInput(args: ParsedArgs) {
  const typeName = text(args, 'type') ?? 'member';
  const userType =
    USER_TYPES[typeName.toLowerCase()] ?? Object.values(USER_TYPES).find((type) => type === typeName.toUpperCase());
  if (!userType) {
    throw new UsageError(`--type must be admin or member, not ${typeName}`);
  }
  const input = { name: text(args, 'name') ?? '', email: text(args, 'email') ?? '', userType };
  const validate = createValidatorCompiler()({ schema: CreateUserSchema, method: 'POST', url: '/v1/users', httpPart: 'body' });
  if (!validate(input)) {
    const issues = (validate as { errors?: { instancePath: string; message?: string }[] }).errors ?? [];
    const described = issues.map((issue) => `--${issue.instancePath.replace(/^\//, '')} ${issue.message ?? 'is invalid'}`);
    throw new UsageError(described.join('; ') || 'Invalid user');
  }
  return input;
}

async function createUserCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const input = newUserInput(args);
  return withDatabase(config, async (db) => {
    const organization = await resolveOrganization(db, text(args, 'org'));
    const clock = systemClock;
    const user = await addUserToOrganization({ db, clock, ids: createIdFactory(clock) }, organization.id, input);
    if (args.values.json) {
      io.out(JSON.stringify(user));
    } else {
      io.out(`User ${user.id} (${user.email}, ${user.userType}) added to ${organization.name} (${organization.id}).`);
      io.out(`Give them an API key: switchboard keys create --email ${user.email} --org ${organization.id}`);
    }
    return 0;
  });
}

async function listUsersCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const pageSize = 500;
  return withDatabase(config, async (db) => {
    const organizationId = text(args, 'org');
    const organizations = organizationId ? [await resolveOrganization(db, organizationId)] : await listOrganizations(db);
    const rows: Record<string, string | null>[] = [];
    for (const organization of organizations) {
      // Pages by keyset: each starts after the last user of the one before.
      for (let after: CursorKey[] | undefined; ; ) {
        const fetched = await listUsers(db, organization.id, { after, offset: 0, limit: pageSize });
        const page = fetched.slice(0, pageSize);
        rows.push(
          ...page.map(toUser).map((user) => ({
            id: user.id,
            email: user.email,
            name: user.name,
            userType: user.userType,
            organizationId: user.organizationId,
            createdAt: user.createdAt,
          })),
        );
        const last = page.at(-1);
        if (fetched.length <= pageSize || !last) {
          break;
        }
        after = [last.created_at, last.id];
      }
    }
    printRows(io, args, rows, 'No users.');
    return 0;
  });
}

/** The user a command names by email or by id, within `--org` when given; an email in several organizations needs it. */
async function findCommandUser(db: Kysely<DB>, emailOrId: string, organizationId: string | undefined) {
  if (organizationId) {
    await resolveOrganization(db, organizationId);
  }
  const where = organizationId ? ` in organization ${organizationId}` : '';
  if (new RegExp(ULID_PATTERN).test(emailOrId)) {
    const user = await findUserByIdInAnyOrganization(db, emailOrId);
    if (!user || (organizationId && user.organization_id !== organizationId)) {
      throw new CommandError(`No user ${emailOrId}${where}`);
    }
    return user;
  }
  const users = await findUsersByEmail(db, requireEmail(emailOrId), organizationId);
  const [user] = users;
  if (!user) {
    throw new CommandError(`No user with email ${emailOrId}${where}`);
  }
  if (users.length > 1) {
    const organizations = users.map((candidate) => candidate.organization_id).join(', ');
    throw new CommandError(`${emailOrId} belongs to several organizations (${organizations}): add --org ID`);
  }
  return user;
}

async function inviteUserCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const emailOrId = args.positional ?? '';
  return withDatabase(config, async (db) => {
    const user = await findCommandUser(db, emailOrId, text(args, 'org'));
    const clock = systemClock;
    const invitation = await createInvitationLink(
      { db, clock, ids: createIdFactory(clock), config },
      user.organization_id,
      user.id,
    );
    if (args.values.json) {
      io.out(JSON.stringify({ organizationId: user.organization_id, ...invitation }));
    } else {
      io.out(`Invitation link for ${invitation.email} (works once, until ${invitation.expiresAt}):`);
      io.out(invitation.link);
    }
    return 0;
  });
}

async function createKey(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const email = requireEmail(text(args, 'email') ?? '');
  const organizationId = text(args, 'org');
  return withDatabase(config, async (db) => {
    const users = await findUsersByEmail(db, email, organizationId);
    if (users.length === 0) {
      throw new CommandError(`No user with email ${email}${organizationId ? ` in organization ${organizationId}` : ''}`);
    }
    const [user] = users;
    if (users.length > 1 || !user) {
      const organizations = users.map((candidate) => candidate.organization_id).join(', ');
      throw new CommandError(`${email} belongs to several organizations (${organizations}): add --org ID`);
    }
    const clock = systemClock;
    const key = await issueApiKey(
      db,
      { clock, ids: createIdFactory(clock) },
      { organizationId: user.organization_id, userId: user.id },
    );
    if (args.values.json) {
      io.out(JSON.stringify({ organizationId: user.organization_id, userId: user.id, apiKey: key.apiKey, prefix: key.prefix }));
    } else {
      io.out(`API key for ${email} (shown only this once): ${key.apiKey}`);
    }
    return 0;
  });
}

async function listKeysCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const email = text(args, 'email');
  if (email) {
    requireEmail(email);
  }
  return withDatabase(config, async (db) => {
    const organizationId = text(args, 'org');
    if (organizationId) {
      await resolveOrganization(db, organizationId);
    }
    let userIds: string[] | undefined;
    if (email) {
      userIds = (await findUsersByEmail(db, email, organizationId)).map((user) => user.id);
      if (userIds.length === 0) {
        throw new CommandError(`No user with email ${email}${organizationId ? ` in organization ${organizationId}` : ''}`);
      }
    }
    const keys = await listApiKeysWithOwners(db, { organizationId, userIds });
    const rows = keys.map((key) => ({
      prefix: key.prefix,
      email: key.email,
      userId: key.user_id,
      organizationId: key.organization_id,
      createdAt: key.created_at,
      revokedAt: key.revoked_at,
    }));
    printRows(io, args, rows, 'No API keys.');
    return 0;
  });
}

async function revokeKey(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const prefix = args.positional ?? '';
  return withDatabase(config, async (db) => {
    const revoked = await revokeApiKey(db, systemClock, prefix);
    if (!revoked) {
      throw new CommandError(`No active API key with prefix ${prefix}`);
    }
    io.out(`Revoked ${prefix}. It stops working within ${config.API_KEY_CACHE_SECONDS} seconds.`);
    return 0;
  });
}

async function demoSeedCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const secretKey = resolveSecretKey(config);
  // Loaded by this command only: no other command needs the seed and its content.
  const { DemoAlreadySeededError, DemoSeedRefusedError, seedDemo } = await import('./demo/demo-seed.js');
  return withDatabase(config, async (db) => {
    let result: DemoSeedResult;
    try {
      result = await seedDemo(
        { db, config, secretKey, clock: systemClock },
        { organizationId: text(args, 'org'), password: text(args, 'password') },
      );
    } catch (error) {
      if (error instanceof DemoAlreadySeededError || error instanceof DemoSeedRefusedError) {
        throw new CommandError(error.message);
      }
      throw error;
    }
    if (args.values.json) {
      io.out(JSON.stringify(result));
    } else {
      printDemoSeed(io, result);
    }
    return 0;
  });
}

function printDemoSeed(io: CliIo, result: DemoSeedResult): void {
  const { organization, counts, signIn } = result;
  io.out(`${organization.created ? 'Created and seeded' : 'Seeded'} organization ${organization.name} (${organization.id}):`);
  io.out(`  ${counts.teams} teams, ${counts.agents} agents, ${counts.accounts} accounts, ${counts.contacts} contacts`);
  io.out(`  ${counts.tickets} tickets with ${counts.publicComments} public comments and ${counts.internalNotes} internal notes`);
  io.out(
    `  a help center with ${counts.collections} collections, ${counts.publishedArticles} published articles and ${counts.draftArticles} draft`,
  );
  io.out(`  an AI agent (${result.aiAgentId}) with ${counts.aiAgentTools} built-in tools`);
  if (result.adminApiKey) {
    io.out(`Admin API key (shown only this once): ${result.adminApiKey}`);
  }
  if (signIn.passwordSet) {
    io.out(`Sign in at ${signIn.url} as ${signIn.email} with the password you gave.`);
  } else {
    io.out(
      `Sign in at ${signIn.url} as ${signIn.email} after choosing a password at this link (works once, until ${signIn.expiresAt}):`,
    );
    io.out(signIn.invitationLink ?? '');
  }
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
