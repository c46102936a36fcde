import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/database.js';
import { systemClock } from '../lib/clock.js';
import { AppError } from '../lib/errors.js';
import { createIdFactory } from '../lib/ids.js';
import type { Principal } from '../lib/principal.js';
import { resolveSecretKey } from '../lib/secret-box.js';
import { exportConfiguration } from '../platform/config-transfer/config-export.service.js';
import { importConfiguration } from '../platform/config-transfer/config-import.service.js';
import { findUsersByEmail, listUsers } from '../platform/users/user.repository.js';
import {
  type CliIo,
  type Command,
  CommandError,
  JSON_OPTION,
  type OptionSpec,
  ORG_OPTION,
  type ParsedArgs,
  requireEmail,
  resolveOrganization,
  text,
  withDatabase,
} from './command.js';

const AS_OPTION: OptionSpec = {
  name: 'as',
  value: 'EMAIL',
  help: "the admin to act as (recorded as the creator of what is made); default: the organization's first admin",
};

export const CONFIG_EXPORT: Command = {
  name: 'config export',
  summary: "print the organization's set-up as a configuration document (JSON, no secrets)",
  options: [ORG_OPTION, AS_OPTION],
  run: exportCommand,
};

export const CONFIG_IMPORT: Command = {
  name: 'config import',
  summary: 'make the organization hold what a configuration document says, in one transaction',
  options: [
    ORG_OPTION,
    AS_OPTION,
    { name: 'dry-run', help: 'list the changes and write nothing' },
    { name: 'prune', help: 'also delete what the document leaves out (archive, for teams)' },
    JSON_OPTION,
  ],
  positional: { name: 'FILE', help: 'the document, as `config export` printed it' },
  run: importCommand,
};

/**
 * The admin a command acts as: `--as` (an admin of the organization), else its first admin. The
 * services check the same rights as for a request with that admin's key.
 */
async function actingAdmin(db: Kysely<DB>, args: ParsedArgs): Promise<Principal> {
  const organization = await resolveOrganization(db, text(args, 'org'));
  const email = text(args, 'as');
  const candidates = email
    ? await findUsersByEmail(db, requireEmail(email), organization.id)
    : await listUsers(db, organization.id, { offset: 0, limit: 1000 });
  const admin = candidates.find((user) => user.user_type === 'ORG_ADMIN' && user.disabled_at === null);
  if (!admin) {
    throw new CommandError(
      email
        ? `${email} is not an admin of ${organization.name} (${organization.id})`
        : `${organization.name} (${organization.id}) has no admin to act as`,
    );
  }
  return { organizationId: organization.id, userId: admin.id, userType: 'ORG_ADMIN' };
}

async function exportCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  return withDatabase(config, async (db) => {
    const document = await exportConfiguration(db, await actingAdmin(db, args));
    io.out(JSON.stringify(document, null, 2));
    return 0;
  });
}

function readDocument(file: string): unknown {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CommandError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(content);
  } catch (error) {
    throw new CommandError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

async function importCommand(args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  const document = readDocument(args.positional ?? '');
  const dryRun = args.values['dry-run'] === true;
  const secretKey = resolveSecretKey(config);
  return withDatabase(config, async (db) => {
    const principal = await actingAdmin(db, args);
    const deps = { db, config, secretKey, clock: systemClock, ids: createIdFactory(systemClock) };
    let result: Awaited<ReturnType<typeof importConfiguration>>;
    try {
      result = await importConfiguration(deps, principal, document, { dryRun, prune: args.values.prune === true });
    } catch (error) {
      if (error instanceof AppError && (error.code === 'VALIDATION' || error.code === 'CONFLICT')) {
        throw new CommandError(`The document is refused; nothing was written:\n  ${error.message.split('; ').join('\n  ')}`);
      }
      throw error;
    }
    if (args.values.json) {
      io.out(JSON.stringify(result));
      return 0;
    }
    for (const change of result.changes) {
      const fields = change.fields.length > 0 ? ` (${change.fields.join(', ')})` : '';
      io.out(`${change.action} ${change.kind} ${change.name}${fields}`);
    }
    const count = `${result.changes.length} change${result.changes.length === 1 ? '' : 's'}`;
    if (result.changes.length === 0) {
      io.out('No changes: the organization holds what the document says.');
    } else {
      io.out(dryRun ? `Dry run: ${count}, nothing written.` : `Applied ${count}.`);
    }
    return 0;
  });
}
