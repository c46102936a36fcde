import type { Kysely } from 'kysely';
import type { DB } from '../src/db/database.js';
import type { Clock } from '../src/lib/clock.js';
import type { IdFactory } from '../src/lib/ids.js';
import { createOrganizationWithAdmin } from '../src/platform/organizations/organization.service.js';
import { issueApiKey } from '../src/platform/users/api-key.service.js';
import { insertUser } from '../src/platform/users/user.repository.js';
import type { UserType } from '../src/platform/users/user.table.js';

interface FactoryDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

let sequence = 0;
const next = () => ++sequence;

export interface TestOrganization {
  organizationId: string;
  userId: string;
  apiKey: string;
  apiKeyPrefix: string;
  /** Headers that authenticate as the organization's admin. */
  headers: { 'x-api-key': string };
}

export async function makeOrganization(
  deps: FactoryDeps,
  overrides: { name?: string; adminEmail?: string } = {},
): Promise<TestOrganization> {
  const n = next();
  const created = await createOrganizationWithAdmin(deps, {
    name: overrides.name ?? `Organization ${n}`,
    adminEmail: overrides.adminEmail ?? `admin${n}@example.com`,
    adminName: `Admin ${n}`,
  });
  return { ...created, headers: { 'x-api-key': created.apiKey } };
}

export async function makeUser(
  deps: FactoryDeps,
  organizationId: string,
  overrides: { name?: string; email?: string; userType?: UserType } = {},
): Promise<{ userId: string; apiKey: string; apiKeyPrefix: string; headers: { 'x-api-key': string } }> {
  const n = next();
  const at = deps.clock.now().toISOString();
  const userId = deps.ids.ulid();
  await insertUser(deps.db, {
    id: userId,
    organization_id: organizationId,
    name: overrides.name ?? `User ${n}`,
    email: overrides.email ?? `user${n}@example.com`,
    user_type: overrides.userType ?? 'ORG_MEMBER',
    avatar_url: null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  const key = await issueApiKey(deps.db, deps, { organizationId, userId });
  return { userId, apiKey: key.apiKey, apiKeyPrefix: key.prefix, headers: { 'x-api-key': key.apiKey } };
}
