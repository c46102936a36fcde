import { readJson } from '../../db/dialect.js';
import type { AgentRow } from './agent.repository.js';

/** The agent's tokens of a calendar month (UTC) against its monthly budget. */
export interface AgentMonthUsage {
  month: string;
  tokens: number;
}

/** The budget as the runs read it: a positive whole number, else none (unlimited). */
function budgetOf(configuration: Record<string, unknown>): number | null {
  const budget = configuration.monthly_token_budget;
  return typeof budget === 'number' && Number.isInteger(budget) && budget > 0 ? budget : null;
}

export function toAgent(row: AgentRow, usage: AgentMonthUsage) {
  const configuration = readJson<Record<string, unknown>>(row.configuration) ?? {};
  return {
    id: row.id,
    name: row.name,
    configuration,
    template_id: row.template_id,
    organization_id: row.organization_id,
    status: row.status,
    description: row.description,
    avatar_url: row.avatar_url,
    metadata: readJson<Record<string, unknown>>(row.metadata),
    files: [],
    team_id: [],
    completed_flows_count: 0,
    pending_flows_count: 0,
    created_by: row.created_by_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    usage: { month: usage.month, tokens: usage.tokens, budget: budgetOf(configuration) },
  };
}
