import type { OrganizationTable } from '../platform/organizations/organization.table.js';
import type { ApiKeyTable } from '../platform/users/api-key.table.js';
import type { UserTable } from '../platform/users/user.table.js';
import type { InstanceSettingTable } from './instance-setting.table.js';

/** The database as Kysely sees it: one entry per table, each typed in its feature's `*.table.ts`. */
export interface DB {
  instance_settings: InstanceSettingTable;
  organizations: OrganizationTable;
  users: UserTable;
  api_keys: ApiKeyTable;
}
