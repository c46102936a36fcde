import { readBoolean, readJson } from '../../db/dialect.js';
import { effectiveWeek, type Schedule } from '../business-hours/hours.js';
import type { DailyConfig, Slot } from '../business-hours/hours.schemas.js';
import type { TeamConfigurationRow } from './team-configuration.repository.js';
import type { TeamConfiguration } from './team-configuration.schemas.js';

/**
 * The API shape, with every stored setting. `routingRespectsUserCapacity` is shown although the
 * upstream leaves it out: a setting that is accepted but never read back cannot be checked.
 * `dailyConfig` is the week as it applies (`effectiveWeek`), the same the status endpoint
 * computes from: with `commonDailyConfig` every day is active with `commonSlots`.
 */
export function toTeamConfiguration(row: TeamConfigurationRow): TeamConfiguration {
  const commonDailyConfig = readBoolean(row.common_daily_config);
  const commonSlots = readJson<Slot[]>(row.common_slots) ?? [];
  return {
    timezone: row.timezone,
    teamId: row.team_id,
    fallbackSubTeam: row.fallback_sub_team_id,
    holidays: readJson<string[]>(row.holidays) ?? [],
    routingRespectsTimezone: readBoolean(row.routing_respects_timezone),
    routingRespectsUserCapacity: readBoolean(row.routing_respects_user_capacity),
    routingRespectsUserTimezone: readBoolean(row.routing_respects_user_timezone),
    routingRespectsUserAvailability: readBoolean(row.routing_respects_user_availability),
    routingRespectsUserBusinessHours: readBoolean(row.routing_respects_user_business_hours),
    userRoutingStrategy: row.user_routing_strategy,
    commonDailyConfig,
    commonSlots,
    dailyConfig: effectiveWeek({ commonDailyConfig, commonSlots, dailyConfig: readJson<DailyConfig>(row.daily_config) ?? {} }),
    aiAgentId: row.ai_agent_id,
    aiAgentMode: row.ai_agent_mode,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toSchedule(configuration: TeamConfiguration): Schedule {
  const { timezone, commonDailyConfig, commonSlots, dailyConfig, holidays } = configuration;
  return { timezone, commonDailyConfig, commonSlots, dailyConfig, holidays };
}
