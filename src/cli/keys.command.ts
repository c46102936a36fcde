import type { Config } from '../config.js';
import { systemClock } from '../lib/clock.js';
import { createIdFactory } from '../lib/ids.js';
import { listApiKeysWithOwners } from '../platform/users/api-key.repository.js';
import { issueApiKey, revokeApiKey } from '../platform/users/api-key.service.js';
import { announceCredentialsChanged } from '../platform/users/credentials.signal.js';
import { findUsersByEmail } from '../platform/users/user.repository.js';
import {
  type CliIo,
  type Command,
  CommandError,
  JSON_OPTION,
  type ParsedArgs,
  printRows,
  requireEmail,
  resolveOrganization,
  text,
  withDatabase,
} from './command.js';

export const KEYS_CREATE: Command = {
  name: 'keys create',
  summary: 'create another API key for a user (shown once)',
  options: [
    { name: 'email', value: 'E', required: true, help: "the user's email" },
    { name: 'org', value: 'ID', help: 'the organization (needed when the email is in several)' },
    JSON_OPTION,
  ],
  run: createKey,
};

export const KEYS_LIST: Command = {
  name: 'keys list',
  summary: 'list API keys by prefix, never the key itself',
  options: [
    { name: 'email', value: 'E', help: "only this user's keys" },
    { name: 'org', value: 'ID', help: 'only this organization' },
    JSON_OPTION,
  ],
  run: listKeysCommand,
};

export const KEYS_REVOKE: Command = {
  name: 'keys revoke',
  summary: 'revoke the key with this prefix',
  options: [],
  positional: { name: 'PREFIX', help: 'the visible start of the key: sbk_ and 8 characters' },
  run: revokeKey,
};

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
    const owner = await revokeApiKey(db, systemClock, prefix);
    if (owner === null) {
      throw new CommandError(`No active API key with prefix ${prefix}`);
    }
    const lag = `may accept it for up to ${config.API_KEY_CACHE_SECONDS} more seconds (API_KEY_CACHE_SECONDS)`;
    let announced: boolean;
    try {
      // After the commit: every server forgets the key it has cached.
      announced = await announceCredentialsChanged(db, [owner]);
    } catch (error) {
      io.out(`Revoked ${prefix}.`);
      io.err(`The running servers could not be told (${error instanceof Error ? error.message : String(error)}): they ${lag}.`);
      return 0;
    }
    if (announced || config.API_KEY_CACHE_SECONDS === 0) {
      io.out(`Revoked ${prefix}. It stops working at once.`);
    } else {
      // SQLite: a server is another process, which no notification reaches.
      io.out(`Revoked ${prefix}. A server already running on this SQLite database ${lag}.`);
    }
    return 0;
  });
}
