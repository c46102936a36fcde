import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { renumberList } from '../../db/renumber.js';
import type { RoutingRuleTable } from './routing-rule.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Rules with their creator's name, which the API shows as `createdBy`. */
function selectRules(db: Db, organizationId: string, teamId: string) {
  return db
    .selectFrom('routing_rules')
    .innerJoin('users as creator', 'creator.id', 'routing_rules.created_by_id')
    .select([
      'routing_rules.id',
      'routing_rules.team_id',
      'routing_rules.name',
      'routing_rules.description',
      'routing_rules.evaluation_order',
      'routing_rules.result_team_id',
      'routing_rules.fallback_team_id',
      'routing_rules.and_rules',
      'routing_rules.or_rules',
      'routing_rules.created_by_id',
      'creator.name as created_by',
      'routing_rules.created_at',
      'routing_rules.updated_at',
    ])
    .where('routing_rules.organization_id', '=', organizationId)
    .where('routing_rules.team_id', '=', teamId);
}

export async function insertRoutingRule(db: Db, row: RoutingRuleTable): Promise<void> {
  await db.insertInto('routing_rules').values(row).execute();
}

/** The team's rules in evaluation order. */
export async function listRoutingRules(db: Db, organizationId: string, teamId: string) {
  return selectRules(db, organizationId, teamId).orderBy('routing_rules.evaluation_order').execute();
}

export type RoutingRuleRow = Awaited<ReturnType<typeof listRoutingRules>>[number];

export async function findRoutingRuleById(db: Db, organizationId: string, teamId: string, ruleId: string) {
  return selectRules(db, organizationId, teamId).where('routing_rules.id', '=', ruleId).executeTakeFirst();
}

/** The id of the team's rule at `evaluationOrder`, if any. */
export async function findRoutingRuleIdByOrder(db: Db, teamId: string, evaluationOrder: number) {
  return db
    .selectFrom('routing_rules')
    .select('id')
    .where('team_id', '=', teamId)
    .where('evaluation_order', '=', evaluationOrder)
    .executeTakeFirst();
}

/** The team's highest evaluation order, or null when it has no rule. */
export async function findHighestEvaluationOrder(db: Db, teamId: string): Promise<number | null> {
  const row = await db
    .selectFrom('routing_rules')
    .select((eb) => eb.fn.max('evaluation_order').as('highest'))
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.highest === null || row?.highest === undefined ? null : Number(row.highest);
}

export async function updateRoutingRule(db: Db, ruleId: string, changes: Updateable<RoutingRuleTable>): Promise<void> {
  await db.updateTable('routing_rules').set(changes).where('id', '=', ruleId).execute();
}

/**
 * The team's rules' ids and orders, each row held until the transaction ends (in id order, so
 * lockers queue alike): a reorder reads the rules it renumbers where no one else can change them.
 */
export async function lockRoutingRuleOrders(trx: Transaction<DB>, organizationId: string, teamId: string) {
  const rows = await forUpdate(
    trx,
    trx
      .selectFrom('routing_rules')
      .select(['id', 'evaluation_order'])
      .where('organization_id', '=', organizationId)
      .where('team_id', '=', teamId)
      .orderBy('id'),
  ).execute();
  return rows.map((row) => ({ id: row.id, evaluationOrder: Number(row.evaluation_order) }));
}

/** Gives each moved rule its new evaluation order (`db/renumber.ts`: orders are unique in the team). */
export function renumberRoutingRules(
  trx: Transaction<DB>,
  teamId: string,
  moves: readonly { id: string; evaluationOrder: number }[],
  updatedAt: string,
): Promise<void> {
  const list = { table: 'routing_rules', position: 'evaluation_order', scope: { column: 'team_id', value: teamId } } as const;
  const positions = moves.map((move) => ({ id: move.id, position: move.evaluationOrder }));
  return renumberList(trx, list, positions, updatedAt);
}

export async function deleteRoutingRule(db: Db, ruleId: string): Promise<void> {
  await db.deleteFrom('routing_rules').where('id', '=', ruleId).execute();
}
