import type { TeamConfigurationTable } from './team-configuration.table.js';

const WEEKDAY = { isActive: true, slots: [{ start: '09:00', end: '17:00' }] };
const WEEKEND = { isActive: false, slots: [] };

/** Weekday hours written out per day, so `commonDailyConfig: false` reads sensibly. */
export const DEFAULT_DAILY_CONFIG = {
  monday: WEEKDAY,
  tuesday: WEEKDAY,
  wednesday: WEEKDAY,
  thursday: WEEKDAY,
  friday: WEEKDAY,
  saturday: WEEKEND,
  sunday: WEEKEND,
};

/**
 * The configuration every new team starts with: UTC, Monday to Friday 09:00-17:00, no holidays,
 * manual assignment, no routing switches on, and no agent working its tickets.
 */
export function defaultTeamConfiguration(teamId: string, organizationId: string, at: string): TeamConfigurationTable {
  return {
    team_id: teamId,
    organization_id: organizationId,
    timezone: 'UTC',
    routing_respects_timezone: false,
    routing_respects_user_capacity: false,
    routing_respects_user_timezone: false,
    routing_respects_user_availability: false,
    routing_respects_user_business_hours: false,
    user_routing_strategy: 'manual',
    fallback_sub_team_id: null,
    holidays: '[]',
    common_daily_config: false,
    common_slots: JSON.stringify([{ start: '09:00', end: '17:00' }]),
    daily_config: JSON.stringify(DEFAULT_DAILY_CONFIG),
    ai_agent_id: null,
    ai_agent_mode: 'off',
    created_at: at,
    updated_at: at,
  };
}
