import type { OrganizationTable } from '../platform/organizations/organization.table.js';
import type { RoutingRuleTable } from '../platform/routing-rules/routing-rule.table.js';
import type { TeamConfigurationTable } from '../platform/team-configurations/team-configuration.table.js';
import type { TeamTagTable } from '../platform/team-tags/team-tag.table.js';
import type { TeamMemberTable, TeamTable } from '../platform/teams/team.table.js';
import type { ApiKeyTable } from '../platform/users/api-key.table.js';
import type { UserTable } from '../platform/users/user.table.js';
import type { UserBusinessHoursTable } from '../platform/users/user-business-hours.table.js';
import type { InstanceSettingTable } from './instance-setting.table.js';

/** The database as Kysely sees it: one entry per table, each typed in its feature's `*.table.ts`. */
export interface DB {
  instance_settings: InstanceSettingTable;
  organizations: OrganizationTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  user_business_hours: UserBusinessHoursTable;
  teams: TeamTable;
  team_members: TeamMemberTable;
  team_tags: TeamTagTable;
  team_configurations: TeamConfigurationTable;
  routing_rules: RoutingRuleTable;
}
