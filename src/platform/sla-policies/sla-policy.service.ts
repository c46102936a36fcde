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
import { SLA_METRICS } from '../../shared/sla.js';
import { requireOrgAdmin } from '../authorization.js';
import { lockOrganization } from '../organizations/organization.lookup.js';
import { parseCondition, SLA_CONDITION_FIELDS } from '../routing-rules/routing-rule.conditions.js';
import { toSlaPolicy } from './sla-policy.presenter.js';
import {
  deleteSlaPolicy,
  findHighestPosition,
  findSlaPolicyById,
  findSlaPolicyIdByPosition,
  insertSlaPolicy,
  listSlaPolicies,
  lockSlaPolicyPositions,
  renumberSlaPolicies,
  type SlaPolicyRow,
  updateSlaPolicy,
} from './sla-policy.repository.js';
import {
  type CreateSlaPolicy,
  MAX_POSITION,
  type ReorderSlaPolicies,
  type SlaTargets,
  type UpdateSlaPolicy,
} from './sla-policy.schemas.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

type Db = Kysely<DB> | Transaction<DB>;

const POSITION_TAKEN = 'An SLA policy with this position already exists!';
const DEFAULT_WARNING_SHARE = 0.75;

export async function listPolicies(db: Kysely<DB>, principal: Principal) {
  return (await listSlaPolicies(db, principal.organizationId)).map(toSlaPolicy);
}

export async function getPolicy(db: Kysely<DB>, principal: Principal, id: string) {
  return toSlaPolicy(await requirePolicy(db, principal.organizationId, id));
}

/** A policy at the end of the order unless `position` places it; organization admins only. */
export async function createPolicy(deps: Deps, principal: Principal, input: CreateSlaPolicy) {
  requireOrgAdmin(principal);
  const { organizationId } = principal;
  const andRules = checkConditions('andRules', input.andRules ?? []);
  const orRules = checkConditions('orRules', input.orRules ?? []);
  checkTargets(input.targets);
  return inTransaction(deps.db, async (trx) => {
    // Concurrent creates must not compute the same next position.
    await lockOrganization(trx, organizationId);
    const position = input.position ?? (await nextPosition(trx, organizationId));
    await ensurePositionFree(trx, organizationId, position);
    const at = deps.clock.now().toISOString();
    const id = deps.ids.ulid();
    await insertSlaPolicy(trx, {
      id,
      organization_id: organizationId,
      name: input.name,
      description: input.description ?? null,
      position,
      and_rules: writeJson(andRules) ?? '[]',
      or_rules: writeJson(orRules) ?? '[]',
      targets: writeJson(input.targets) ?? '{}',
      business_hours: input.businessHours ?? true,
      ai_replies_count: input.aiRepliesCount ?? false,
      warning_share: input.warningShare ?? DEFAULT_WARNING_SHARE,
      created_by_id: principal.userId,
      created_at: at,
      updated_at: at,
    }).catch(conflictAs(POSITION_TAKEN));
    return toSlaPolicy(await requirePolicy(trx, organizationId, id));
  });
}

/** Changes only the fields sent. Tickets already governed keep their running targets until their next change. */
export async function updatePolicy(deps: Deps, principal: Principal, id: string, input: UpdateSlaPolicy) {
  requireOrgAdmin(principal);
  const { organizationId } = principal;
  const andRules = input.andRules && checkConditions('andRules', input.andRules);
  const orRules = input.orRules && checkConditions('orRules', input.orRules);
  if (input.targets) {
    checkTargets(input.targets);
  }
  return inTransaction(deps.db, async (trx) => {
    await requirePolicy(trx, organizationId, id);
    if (input.position !== undefined) {
      await ensurePositionFree(trx, organizationId, input.position, id);
    }
    const changes = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.position !== undefined && { position: input.position }),
      ...(andRules && { and_rules: writeJson(andRules) ?? '[]' }),
      ...(orRules && { or_rules: writeJson(orRules) ?? '[]' }),
      ...(input.targets && { targets: writeJson(input.targets) ?? '{}' }),
      ...(input.businessHours !== undefined && { business_hours: input.businessHours }),
      ...(input.aiRepliesCount !== undefined && { ai_replies_count: input.aiRepliesCount }),
      ...(input.warningShare !== undefined && { warning_share: input.warningShare }),
    };
    if (Object.keys(changes).length > 0) {
      await updateSlaPolicy(trx, id, { ...changes, updated_at: deps.clock.now().toISOString() }).catch(
        conflictAs(POSITION_TAKEN),
      );
    }
    return toSlaPolicy(await requirePolicy(trx, organizationId, id));
  });
}

/**
 * Puts the organization's policies in the order of `policyIds`, which names each once: positions
 * 0, 1, 2… in one transaction, under the organization's row (as creates take it) and every
 * policy's row, so concurrent reorders take turns and each applies whole.
 */
export async function reorderPolicies(deps: Deps, principal: Principal, input: ReorderSlaPolicies) {
  requireOrgAdmin(principal);
  const { organizationId } = principal;
  return deps.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationId);
    const current = await lockSlaPolicyPositions(trx, organizationId);
    checkNamesEachOnce(
      current.map((policy) => policy.id),
      input.policyIds,
      'policyIds',
      'SLA policy of the organization',
    );
    const positionOf = new Map(current.map((policy) => [policy.id, policy.position]));
    const moves = input.policyIds
      .map((id, position) => ({ id, position }))
      .filter((move) => positionOf.get(move.id) !== move.position);
    await renumberSlaPolicies(trx, organizationId, moves, deps.clock.now().toISOString());
    return (await listSlaPolicies(trx, organizationId)).map(toSlaPolicy);
  });
}

/** Answers with the policy as it was; tickets it governed keep their targets and history. */
export async function deletePolicy(deps: Deps, principal: Principal, id: string) {
  requireOrgAdmin(principal);
  return inTransaction(deps.db, async (trx) => {
    const policy = await requirePolicy(trx, principal.organizationId, id);
    await deleteSlaPolicy(trx, id);
    return toSlaPolicy(policy);
  });
}

async function requirePolicy(db: Db, organizationId: string, id: string): Promise<SlaPolicyRow> {
  const policy = await findSlaPolicyById(db, organizationId, id);
  if (!policy) {
    throw AppError.notFound('SLA policy not found!');
  }
  return policy;
}

/** Every condition must parse, on the fields SLA policies match; the strings are kept as sent. */
function checkConditions(name: 'andRules' | 'orRules', conditions: string[]): string[] {
  conditions.forEach((text, index) => {
    const parsed = parseCondition(text, SLA_CONDITION_FIELDS);
    if (!parsed.ok) {
      throw AppError.invalid(`${name}[${index}] ${parsed.problem}`, { location: 'body', path: [name, index], rule: 'condition' });
    }
  });
  return conditions;
}

/** A reply target (first, next, periodic) longer than the resolution target could never matter: refused. */
function checkTargets(targets: Record<string, SlaTargets>): void {
  for (const [priority, target] of Object.entries(targets)) {
    if (target.resolution === undefined) {
      continue;
    }
    for (const metric of SLA_METRICS) {
      const value = target[metric];
      if (metric !== 'resolution' && value !== undefined && value > target.resolution) {
        throw AppError.invalid(
          `targets.${priority}.${metric} (${value}) must not exceed targets.${priority}.resolution (${target.resolution})`,
          { location: 'body', path: ['targets', priority, metric], rule: 'targetOrder' },
        );
      }
    }
  }
}

async function nextPosition(db: Db, organizationId: string): Promise<number> {
  const highest = await findHighestPosition(db, organizationId);
  if (highest === null) {
    return 0;
  }
  if (highest >= MAX_POSITION) {
    throw AppError.invalid('position is required: the policies already use the highest one', {
      location: 'body',
      path: ['position'],
      rule: 'required',
    });
  }
  return highest + 1;
}

async function ensurePositionFree(db: Db, organizationId: string, position: number, exceptId?: string): Promise<void> {
  const holder = await findSlaPolicyIdByPosition(db, organizationId, position);
  if (holder && holder.id !== exceptId) {
    throw AppError.conflict(POSITION_TAKEN);
  }
}
