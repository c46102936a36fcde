import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { type Condition, parseCondition, SLA_CONDITION_FIELDS } from '../routing-rules/routing-rule.conditions.js';
import { type SlaPolicy, toSlaPolicy } from './sla-policy.presenter.js';
import { listSlaPolicies } from './sla-policy.repository.js';

export type MatchablePolicy = SlaPolicy & { conditions: { andRules: Condition[]; orRules: Condition[] } };

const parsed = (texts: string[]): Condition[] =>
  texts.flatMap((text) => {
    const result = parseCondition(text, SLA_CONDITION_FIELDS);
    return result.ok ? [result.condition] : [];
  });

/** The organization's policies in evaluation order, conditions parsed: what the SLA clock matches tickets against. */
export async function listMatchablePolicies(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
): Promise<MatchablePolicy[]> {
  return (await listSlaPolicies(db, organizationId)).map((row) => {
    const policy = toSlaPolicy(row);
    return { ...policy, conditions: { andRules: parsed(policy.andRules), orRules: parsed(policy.orRules) } };
  });
}
