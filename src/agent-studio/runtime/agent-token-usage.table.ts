/**
 * An agent's tokens in one month: what finished stretches of runs used, and what stretches in
 * progress hold. A stretch reserves before it calls the model, atomically against the budget, and
 * settles (used += spent, reserved -= held) when it ends, so concurrent runs share the budget as
 * sequential ones would.
 */
export interface AgentTokenUsageTable {
  agent_id: string;
  /** The first instant of the month, UTC. */
  period_start: string;
  organization_id: string;
  used_tokens: number | string;
  reserved_tokens: number | string;
  updated_at: string;
}
