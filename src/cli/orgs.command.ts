import type { Config } from '../config.js';
import { systemClock } from '../lib/clock.js';
import { createIdFactory } from '../lib/ids.js';
import { listOrganizations } from '../platform/organizations/organization.repository.js';
import { createOrganizationWithAdmin } from '../platform/organizations/organization.service.js';
import {
  type CliIo,
  type Command,
  JSON_OPTION,
  type ParsedArgs,
  printRows,
  requireEmail,
  text,
  withDatabase,
} from './command.js';

export const ORGS_CREATE: Command = {
  name: 'orgs create',
  summary: 'create an organization, its admin and an API key (shown once)',
  options: [
    { name: 'name', value: 'N', required: true, help: 'name of the organization' },
    { name: 'admin-email', value: 'E', required: true, help: 'email of its first admin' },
    { name: 'admin-name', value: 'N', help: "the admin's name (default: the email's local part)" },
    JSON_OPTION,
  ],
  run: createOrganization,
};

export const ORGS_LIST: Command = {
  name: 'orgs list',
  summary: 'list the organizations',
  options: [JSON_OPTION],
  run: listOrganizationsCommand,
};

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
