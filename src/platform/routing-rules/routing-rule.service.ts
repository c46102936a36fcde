import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import { conflictAs } from '../../db/errors.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import { checkNamesEachOnce } from '../../lib/permutation.js';
import type { Principal } from '../../lib/principal.js';
import { findTeam, lockTeamForUpdate, requireTeam } from '../teams/team.lookup.js';
import { requireManagedTeam } from '../teams/team.service.js';
import { parseCondition } from './routing-rule.conditions.js';
import { toRoutingRule } from './routing-rule.presenter.js';
import {
  deleteRoutingRule,
  findHighestEvaluationOrder,
  findRoutingRuleById,
  findRoutingRuleIdByOrder,
  insertRoutingRule,
  listRoutingRules,
  lockRoutingRuleOrders,
  type RoutingRuleRow,
  renumberRoutingRules,
  updateRoutingRule,
} from './routing-rule.repository.js';
import {
  type CreateRoutingRule,
  MAX_EVALUATION_ORDER,
  type ReorderRoutingRules,
  type UpdateRoutingRule,
} from './routing-rule.schemas.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

type Db = Kysely<DB> | Transaction<DB>;

const ORDER_TAKEN = 'A routing rule with this evaluation order already exists for the team!';

export async function listRules(db: Kysely<DB>, principal: Principal, teamId: string) {
  await requireTeam(db, principal.organizationId, teamId);
  return (await listRoutingRules(db, principal.organizationId, teamId)).map(toRoutingRule);
}

/**
 * A rule at the end of the team's order unless `evaluationOrder` places it. A team's rules are
 * changed by an admin or a manager of the team, as the team itself is.
 */
export async function createRule(deps: Deps, principal: Principal, teamId: string, input: CreateRoutingRule) {
  const { organizationId } = principal;
  return inTransaction(deps.db, async (trx) => {
    await requireManagedTeam(trx, principal, teamId);
    // Concurrent creates must not compute the same next order.
    await lockTeamForUpdate(trx, organizationId, teamId);
    const andRules = checkConditions('andRules', input.andRules ?? []);
    const orRules = checkConditions('orRules', input.orRules ?? []);
    await checkTeamReference(trx, organizationId, 'resultTeamId', input.resultTeamId);
    await checkTeamReference(trx, organizationId, 'fallbackTeamId', input.fallbackTeamId);
    const evaluationOrder = input.evaluationOrder ?? (await nextEvaluationOrder(trx, teamId));
    await ensureOrderFree(trx, teamId, evaluationOrder);
    const at = deps.clock.now().toISOString();
    const id = deps.ids.ulid();
    await insertRoutingRule(trx, {
      id,
      organization_id: organizationId,
      team_id: teamId,
      name: input.name,
      description: input.description ?? null,
      evaluation_order: evaluationOrder,
      result_team_id: input.resultTeamId,
      fallback_team_id: input.fallbackTeamId ?? null,
      and_rules: writeJson(andRules) ?? '[]',
      or_rules: writeJson(orRules) ?? '[]',
      created_by_id: principal.userId,
      created_at: at,
      updated_at: at,
    }).catch(conflictAs(ORDER_TAKEN));
    return toRoutingRule(await requireRule(trx, organizationId, teamId, id));
  });
}

/** Changes only the fields sent; an empty body changes nothing. */
export async function updateRule(deps: Deps, principal: Principal, teamId: string, ruleId: string, input: UpdateRoutingRule) {
  const { organizationId } = principal;
  return inTransaction(deps.db, async (trx) => {
    await requireManagedTeam(trx, principal, teamId);
    await requireRule(trx, organizationId, teamId, ruleId);
    const andRules = input.andRules && checkConditions('andRules', input.andRules);
    const orRules = input.orRules && checkConditions('orRules', input.orRules);
    await checkTeamReference(trx, organizationId, 'resultTeamId', input.resultTeamId);
    await checkTeamReference(trx, organizationId, 'fallbackTeamId', input.fallbackTeamId);
    if (input.evaluationOrder !== undefined) {
      await ensureOrderFree(trx, teamId, input.evaluationOrder, ruleId);
    }
    const changes = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.evaluationOrder !== undefined && { evaluation_order: input.evaluationOrder }),
      ...(input.resultTeamId !== undefined && { result_team_id: input.resultTeamId }),
      ...(input.fallbackTeamId !== undefined && { fallback_team_id: input.fallbackTeamId }),
      ...(andRules && { and_rules: writeJson(andRules) ?? '[]' }),
      ...(orRules && { or_rules: writeJson(orRules) ?? '[]' }),
    };
    if (Object.keys(changes).length > 0) {
      await updateRoutingRule(trx, ruleId, { ...changes, updated_at: deps.clock.now().toISOString() }).catch(
        conflictAs(ORDER_TAKEN),
      );
    }
    return toRoutingRule(await requireRule(trx, organizationId, teamId, ruleId));
  });
}

/**
 * Puts the team's rules in the order of `ruleIds`, which names each of them once: evaluation
 * orders 0, 1, 2… in one transaction. The team's row is held as creates hold it, and every rule's
 * row as changes and deletes take it, so the rules checked are the rules renumbered, and concurrent
 * reorders take turns: each applies whole, the last one's order stays. Only the rules whose order
 * changes are written (and their `updatedAt`); answers every rule of the team in its new order.
 */
export async function reorderRules(deps: Deps, principal: Principal, teamId: string, input: ReorderRoutingRules) {
  const { organizationId } = principal;
  return deps.db.transaction().execute(async (trx) => {
    await requireManagedTeam(trx, principal, teamId);
    await lockTeamForUpdate(trx, organizationId, teamId);
    const current = await lockRoutingRuleOrders(trx, organizationId, teamId);
    checkNamesEachOnce(
      current.map((rule) => rule.id),
      input.ruleIds,
      'ruleIds',
      'routing rule of the team',
    );
    const orderOf = new Map(current.map((rule) => [rule.id, rule.evaluationOrder]));
    const moves = input.ruleIds
      .map((id, evaluationOrder) => ({ id, evaluationOrder }))
      .filter((move) => orderOf.get(move.id) !== move.evaluationOrder);
    await renumberRoutingRules(trx, teamId, moves, deps.clock.now().toISOString());
    return (await listRoutingRules(trx, organizationId, teamId)).map(toRoutingRule);
  });
}

/** Answers with the rule as it was. */
export async function deleteRule(deps: Deps, principal: Principal, teamId: string, ruleId: string) {
  const { organizationId } = principal;
  return inTransaction(deps.db, async (trx) => {
    await requireManagedTeam(trx, principal, teamId);
    const rule = await requireRule(trx, organizationId, teamId, ruleId);
    await deleteRoutingRule(trx, ruleId);
    return toRoutingRule(rule);
  });
}

async function requireRule(db: Db, organizationId: string, teamId: string, ruleId: string): Promise<RoutingRuleRow> {
  const rule = await findRoutingRuleById(db, organizationId, teamId, ruleId);
  if (!rule) {
    throw AppError.notFound('Routing rule not found!');
  }
  return rule;
}

/** Every condition must parse; the strings are kept exactly as sent. */
function checkConditions(name: 'andRules' | 'orRules', conditions: string[]): string[] {
  conditions.forEach((text, index) => {
    const parsed = parseCondition(text);
    if (!parsed.ok) {
      throw AppError.invalid(`${name}[${index}] ${parsed.problem}`, { location: 'body', path: [name, index], rule: 'condition' });
    }
  });
  return conditions;
}

/** `resultTeamId` / `fallbackTeamId` must name an active team of the caller's organization. */
async function checkTeamReference(
  db: Db,
  organizationId: string,
  field: 'resultTeamId' | 'fallbackTeamId',
  teamId: string | null | undefined,
): Promise<void> {
  if (teamId === null || teamId === undefined) {
    return;
  }
  if (!(await findTeam(db, organizationId, teamId))) {
    throw AppError.invalid(`${field} must be an active team of the organization`, {
      location: 'body',
      path: [field],
      rule: 'reference',
    });
  }
}

async function nextEvaluationOrder(db: Db, teamId: string): Promise<number> {
  const highest = await findHighestEvaluationOrder(db, teamId);
  if (highest === null) {
    return 0;
  }
  if (highest >= MAX_EVALUATION_ORDER) {
    throw AppError.invalid("evaluationOrder is required: the team's rules already use the highest one", {
      location: 'body',
      path: ['evaluationOrder'],
      rule: 'required',
    });
  }
  return highest + 1;
}

async function ensureOrderFree(db: Db, teamId: string, evaluationOrder: number, exceptRuleId?: string): Promise<void> {
  const holder = await findRoutingRuleIdByOrder(db, teamId, evaluationOrder);
  if (holder && holder.id !== exceptRuleId) {
    throw AppError.conflict(ORDER_TAKEN);
  }
}
