import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type CliIo, type Command, CommandError, type ParsedArgs, UsageError } from './cli/command.js';
import { CONFIG_EXPORT, CONFIG_IMPORT } from './cli/config.command.js';
import { DEMO_SEED } from './cli/demo.command.js';
import { KEYS_CREATE, KEYS_LIST, KEYS_REVOKE } from './cli/keys.command.js';
import { ORGS_CREATE, ORGS_LIST } from './cli/orgs.command.js';
import { MIGRATE, SERVE } from './cli/serve.command.js';
import { USERS_CREATE, USERS_INVITE, USERS_LIST } from './cli/users.command.js';
import { ConfigError, parseConfig } from './config.js';
import { DatabaseUnreachableError } from './db/reachability.js';
import { AppError } from './lib/errors.js';
import { PROJECT_ROOT } from './project-root.js';

export type { CliIo } from './cli/command.js';

const consoleIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** `switchboard org create` keeps working beside `orgs create`. */
const GROUP_ALIASES: Record<string, string> = { org: 'orgs', user: 'users', key: 'keys' };

/** In the order `--help` lists them. Each group's commands are in `cli/<group>.command.ts`. */
const COMMANDS: Command[] = [
  SERVE,
  MIGRATE,
  ORGS_CREATE,
  ORGS_LIST,
  USERS_CREATE,
  USERS_LIST,
  USERS_INVITE,
  KEYS_CREATE,
  KEYS_LIST,
  DEMO_SEED,
  KEYS_REVOKE,
  CONFIG_EXPORT,
  CONFIG_IMPORT,
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
