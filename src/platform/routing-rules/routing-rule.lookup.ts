import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { listRoutingRules, type RoutingRuleRow } from './routing-rule.repository.js';

/**
 * The team's routing rules in evaluation order: what the routing engine evaluates, in its own
 * transaction (no access check; the engine acts for the system).
 */
export async function listRulesOfTeam(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  teamId: string,
): Promise<RoutingRuleRow[]> {
  return listRoutingRules(db, organizationId, teamId);
}
