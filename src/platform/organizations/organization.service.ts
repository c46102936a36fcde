import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { issueApiKey } from '../users/api-key.service.js';
import { insertFirstAdmin } from '../users/user.service.js';
import { claimInstanceSetting, countOrganizations, insertOrganization } from './organization.repository.js';

export interface NewOrganization {
  organizationId: string;
  userId: string;
  apiKey: string;
  apiKeyPrefix: string;
}

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/** An organization, its first admin and that admin's first key, all or nothing. */
export async function createOrganizationWithAdmin(
  deps: Deps,
  input: { name: string; adminEmail: string; adminName?: string },
): Promise<NewOrganization> {
  return deps.db.transaction().execute((trx) => createInTransaction(trx, deps, input));
}

async function createInTransaction(
  trx: Kysely<DB>,
  deps: Deps,
  input: { name: string; adminEmail: string; adminName?: string },
): Promise<NewOrganization> {
  const at = deps.clock.now().toISOString();
  const organizationId = deps.ids.ulid();
  const userId = deps.ids.ulid();
  await insertOrganization(trx, { id: organizationId, name: input.name, created_at: at, updated_at: at });
  await insertFirstAdmin(trx, { id: userId, organizationId, name: input.adminName, email: input.adminEmail, at });
  const key = await issueApiKey(trx, deps, { organizationId, userId });
  return { organizationId, userId, apiKey: key.apiKey, apiKeyPrefix: key.prefix };
}

export const FIRST_START_ORGANIZATION = {
  name: 'Default organization',
  adminEmail: 'admin@switchboard.local',
  adminName: 'Admin',
};

/**
 * On the very first start against an empty database, make an organization and an admin key so a
 * new user can call the API at once. Several processes may start together: one claims the step.
 */
export async function createFirstStartOrganization(deps: Deps): Promise<NewOrganization | null> {
  return deps.db.transaction().execute(async (trx) => {
    const at = deps.clock.now().toISOString();
    const claimed = await claimInstanceSetting(trx, 'first_start_organization', at, at);
    if (!claimed || (await countOrganizations(trx)) > 0) {
      return null;
    }
    return createInTransaction(trx, deps, FIRST_START_ORGANIZATION);
  });
}
