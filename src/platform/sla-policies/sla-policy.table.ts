export interface SlaPolicyTable {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  /** Evaluation order, unique per organization: the first matching policy applies to a ticket. */
  position: number;
  /** JSON arrays of condition strings, in routing rules' form (`routing-rule.conditions.ts`). */
  and_rules: string;
  or_rules: string;
  /** JSON object: priority name → `{firstReply?, nextReply?, periodicUpdate?, resolution?}` in minutes. */
  targets: string;
  business_hours: boolean | number;
  ai_replies_count: boolean | number;
  warning_share: number;
  created_by_id: string;
  created_at: string;
  updated_at: string;
}
