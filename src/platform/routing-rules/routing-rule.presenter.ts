import { readJson } from '../../db/dialect.js';
import type { RoutingRuleRow } from './routing-rule.repository.js';

export function toRoutingRule(row: RoutingRuleRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    teamId: row.team_id,
    evaluationOrder: Number(row.evaluation_order),
    resultTeamId: row.result_team_id,
    fallbackTeamId: row.fallback_team_id,
    andRules: readJson<string[]>(row.and_rules) ?? [],
    orRules: readJson<string[]>(row.or_rules) ?? [],
    createdBy: row.created_by,
    createdById: row.created_by_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
