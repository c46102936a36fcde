export interface RoutingRuleTable {
  id: string;
  organization_id: string;
  team_id: string;
  name: string;
  description: string | null;
  evaluation_order: number;
  result_team_id: string;
  fallback_team_id: string | null;
  /** JSON array of condition strings, each itself a JSON object `{field, operator, value}`. */
  and_rules: string;
  or_rules: string;
  created_by_id: string;
  created_at: string;
  updated_at: string;
}
