import type { TicketAgentMode } from '../../agent-studio/ticket-agents/ticket-agent.modes.js';

export type UserRoutingStrategy = 'manual' | 'round_robin';

/** One row per team, made with the team. JSON columns are text written by `writeJson`. */
export interface TeamConfigurationTable {
  team_id: string;
  organization_id: string;
  timezone: string;
  routing_respects_timezone: boolean | number;
  routing_respects_user_capacity: boolean | number;
  routing_respects_user_timezone: boolean | number;
  routing_respects_user_availability: boolean | number;
  routing_respects_user_business_hours: boolean | number;
  user_routing_strategy: UserRoutingStrategy;
  fallback_sub_team_id: string | null;
  /** JSON array of `DD-MM` / `DD-MM-YYYY` strings. */
  holidays: string;
  common_daily_config: boolean | number;
  /** JSON array of `{start, end}`. */
  common_slots: string;
  /** JSON object keyed monday..sunday of `{isActive, slots}`. */
  daily_config: string;
  /** The agent-studio agent working the team's tickets, and how (`ticket-agents/`). */
  ai_agent_id: string | null;
  ai_agent_mode: TicketAgentMode;
  created_at: string;
  updated_at: string;
}
