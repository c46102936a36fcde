import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/database.js';
import { createValidatorCompiler } from '../http/validation.js';
import { systemClock } from '../lib/clock.js';
import type { CursorKey } from '../lib/cursors.js';
import { createIdFactory, ULID_PATTERN } from '../lib/ids.js';
import { createInvitationLink } from '../platform/auth/auth-token.service.js';
import { listOrganizations } from '../platform/organizations/organization.repository.js';
import { toUser } from '../platform/users/user.presenter.js';
import { findUserByIdInAnyOrganization, findUsersByEmail, listUsers } from '../platform/users/user.repository.js';
import { CreateUserSchema } from '../platform/users/user.schemas.js';
import { addUserToOrganization } from '../platform/users/user.service.js';
import type { UserType } from '../platform/users/user.table.js';
import {
  type CliIo,
  type Command,
  CommandError,
  JSON_OPTION,
  ORG_OPTION,
  type ParsedArgs,
  printRows,
  requireEmail,
  resolveOrganization,
  text,
  UsageError,
  withDatabase,
} from './command.js';

export const USERS_CREATE: Command = {
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
};

export const USERS_LIST: Command = {
  name: 'users list',
  summary: 'list the users of one organization, or of all',
  options: [{ name: 'org', value: 'ID', help: 'only this organization' }, JSON_OPTION],
  run: listUsersCommand,
};

export const USERS_INVITE: Command = {
  name: 'users invite',
  summary: 'print a link that lets a user choose a password and sign in (works once, for 7 days)',
  options: [{ name: 'org', value: 'ID', help: 'the organization (needed when the email is in several)' }, JSON_OPTION],
  positional: { name: 'USER', help: "the user's email or id" },
  run: inviteUserCommand,
};

const USER_TYPES: Record<string, UserType> = { admin: 'ORG_ADMIN', member: 'ORG_MEMBER' };

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
