/**
 * What every command shares: how it is described, the errors that set its exit code, and the
 * helpers of the commands that use the database. `src/cli.ts` dispatches to the commands.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { openReachableDatabase } from '../db/reachability.js';
import { findOrganizationById, listOrganizations } from '../platform/organizations/organization.repository.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** The command line is wrong: exit 2, with the usage. */
export class UsageError extends Error {}

/** The command was understood but cannot be carried out (an unknown organization, say): exit 1. */
export class CommandError extends Error {}

export interface OptionSpec {
  name: string;
  /** The placeholder of the option's value; a flag without one takes none. */
  value?: string;
  required?: boolean;
  help: string;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positional?: string;
}

export interface Command {
  /** The words that select it: `serve`, `keys create`. */
  name: string;
  summary: string;
  options: OptionSpec[];
  positional?: { name: string; help: string };
  run(args: ParsedArgs, config: Config, io: CliIo): Promise<number>;
}

export const JSON_OPTION: OptionSpec = { name: 'json', help: 'print JSON (one line) instead of text' };
export const ORG_OPTION: OptionSpec = { name: 'org', value: 'ID', help: 'the organization (needed when there are several)' };

/** Opens the database, checks it answers and brings it up to date before a command touches it. */
export async function withDatabase<T>(config: Config, run: (db: Kysely<DB>, applied: string[]) => Promise<T>): Promise<T> {
  const handle = await openReachableDatabase(config);
  try {
    const applied = await migrateToLatest(handle.db);
    return await run(handle.db, applied);
  } finally {
    await handle.close();
  }
}

export function text(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function requireEmail(value: string): string {
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) {
    throw new UsageError(`Not an email address: ${value}`);
  }
  return value;
}

/** The organization a command acts on: `--org` when given (it must exist), else the only one there is. */
export async function resolveOrganization(
  db: Kysely<DB>,
  organizationId: string | undefined,
): Promise<{ id: string; name: string }> {
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
export function printRows(io: CliIo, args: ParsedArgs, rows: Record<string, string | null>[], empty: string): void {
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
