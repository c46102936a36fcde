import { translateDbError } from '../../db/errors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { bulkUpdateCustomFields, createCustomField, deleteCustomField } from '../custom-fields/custom-field.service.js';
import { MAX_EVALUATION_ORDER } from '../routing-rules/routing-rule.schemas.js';
import { createRule, deleteRule, updateRule } from '../routing-rules/routing-rule.service.js';
import { updateTeamConfiguration } from '../team-configurations/team-configuration.service.js';
import { createTag, deleteTag, updateTag } from '../team-tags/team-tag.service.js';
import { archiveTeam, createTeam, updateTeamDetails } from '../teams/team.service.js';
import type { EntryOf, HeldConfiguration } from './config-export.service.js';
import {
  applySatisfactionSettings,
  applySlaPolicy,
  applyTicketStatus,
  parkRepositionedPolicies,
} from './config-import.apply-service-levels.js';
import { applySharedStep } from './config-import.apply-shared.js';
import { type ApplyDeps, ImportedIds, written } from './config-import.context.js';
import type { PlannedStep } from './config-import.plan.js';
import { isIdKey, swapConditionField } from './config-references.js';

/**
 * Applies the steps in order, each through its feature's service in the import's transaction, as
 * the caller: what a service refuses is reported with the document path of the entry, and stops
 * the import (the transaction rolls back). Routing rules whose order changes, and SLA policies whose
 * position changes, are parked at free ones first, so that they may swap places.
 */
export async function applyPlan(
  deps: ApplyDeps,
  principal: Principal,
  steps: PlannedStep[],
  context: { ids: ImportedIds; held: HeldConfiguration },
): Promise<void> {
  const { ids, held } = context;
  const parked = new Set<string>();
  for (const step of steps) {
    const firstWrite = step.action !== 'delete' && !parked.has(step.section);
    if (step.section === 'routingRules' && firstWrite) {
      parked.add(step.section);
      const heldOrders = held.routingRules.map((rule) => rule.entry.evaluationOrder);
      await asImportProblem(step, () => parkReorderedRules(deps, principal, steps, { ids, heldOrders }));
    }
    if (step.section === 'slaPolicies' && firstWrite) {
      parked.add(step.section);
      await asImportProblem(step, () => parkRepositionedPolicies(deps, principal, steps, held));
    }
    await asImportProblem(step, () => applyStep(deps, principal, step, ids));
  }
}

async function asImportProblem(step: PlannedStep, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    // A constraint the database enforced (a race another writer won) is named like a service's refusal.
    const refusal = error instanceof AppError ? error : translateDbError(error);
    if (!refusal || !['VALIDATION', 'NOT_FOUND', 'CONFLICT'].includes(refusal.code)) {
      throw error;
    }
    // A reference the service cannot find is the document's fault: a 400, as the checks' are.
    throw new AppError({
      code: refusal.code === 'CONFLICT' ? 'CONFLICT' : 'VALIDATION',
      message: `${step.path} (${step.name}): ${refusal.message.replaceAll('; ', ', ')}`,
      cause: error,
    });
  }
}

async function applyStep(deps: ApplyDeps, principal: Principal, step: PlannedStep, ids: ImportedIds): Promise<void> {
  switch (step.section) {
    case 'teams':
      return applyTeam(deps, principal, step as PlannedStep<'teams'>, ids);
    case 'teamConfigurations':
      return applyTeamConfiguration(deps, principal, step as PlannedStep<'teamConfigurations'>, ids);
    case 'customFields':
      return applyCustomField(deps, principal, step as PlannedStep<'customFields'>, ids);
    case 'teamTags':
      return applyTeamTag(deps, principal, step as PlannedStep<'teamTags'>, ids);
    case 'routingRules':
      return applyRoutingRule(deps, principal, step as PlannedStep<'routingRules'>, ids);
    case 'ticketStatuses':
      return applyTicketStatus(deps, principal, step as PlannedStep<'ticketStatuses'>, ids);
    case 'satisfactionSettings':
      return applySatisfactionSettings(deps, principal, step as PlannedStep<'satisfactionSettings'>, ids);
    case 'slaPolicies':
      return applySlaPolicy(deps, principal, step as PlannedStep<'slaPolicies'>, ids);
    default:
      return applySharedStep(deps, principal, step, ids);
  }
}

async function applyTeam(deps: ApplyDeps, principal: Principal, step: PlannedStep<'teams'>, ids: ImportedIds) {
  if (step.action === 'delete' && step.held) {
    await archiveTeam(deps, principal, step.held.id);
    return;
  }
  const { name, parent, ...details } = written(step, step.entry as EntryOf<'teams'>);
  if (step.action === 'create' && name !== undefined) {
    const parentTeamId = parent ? ids.requireTeam(parent) : undefined;
    const team = await createTeam(deps, principal, { name, ...details, ...(parentTeamId && { parentTeamId }) });
    ids.teams.set(name, team.id);
  } else if (step.held) {
    await updateTeamDetails(deps, principal, step.held.id, details);
  }
}

async function applyTeamConfiguration(
  deps: ApplyDeps,
  principal: Principal,
  step: PlannedStep<'teamConfigurations'>,
  ids: ImportedIds,
) {
  const entry = step.entry as EntryOf<'teamConfigurations'>;
  const { team: _team, fallbackSubTeam, ...changes } = written(step, entry);
  const body = {
    ...changes,
    ...(fallbackSubTeam !== undefined && { fallbackSubTeam: fallbackSubTeam && ids.requireTeam(fallbackSubTeam) }),
  };
  await updateTeamConfiguration(deps, principal, ids.requireTeam(entry.team), body);
}

async function applyCustomField(deps: ApplyDeps, principal: Principal, step: PlannedStep<'customFields'>, ids: ImportedIds) {
  if (step.action === 'delete' && step.held) {
    await deleteCustomField(deps, principal, step.held.id);
    return;
  }
  const entry = step.entry as EntryOf<'customFields'>;
  const { source, slug, team, fieldType, metadata, lookup, options, ...changes } = written(step, entry);
  const optionValues = options?.map((value) => ({ value }));
  if (step.action === 'create') {
    const input = {
      ...changes,
      name: entry.name,
      source: entry.source,
      fieldType: entry.fieldType,
      ...(optionValues && { options: optionValues }),
      ...(metadata !== undefined && { metadata }),
      ...(lookup !== undefined && { lookup }),
      teamId: team ? ids.requireTeam(team) : null,
    };
    const field = await createCustomField(deps, principal, input, { slug: entry.slug });
    ids.fields.set(`${entry.source}\u0000${entry.slug}`, field.uid);
    return;
  }
  const held = step.held;
  if (held) {
    const updates = { ...changes, ...(optionValues && { options: optionValues }) };
    await bulkUpdateCustomFields(deps, principal, { fields: [{ fieldId: held.id, version: held.version ?? 1, updates }] });
  }
}

async function applyTeamTag(deps: ApplyDeps, principal: Principal, step: PlannedStep<'teamTags'>, ids: ImportedIds) {
  const entry = (step.entry ?? step.held?.entry) as EntryOf<'teamTags'>;
  const teamId = ids.requireTeam(entry.team);
  if (step.action === 'delete' && step.held) {
    await deleteTag(deps, principal, teamId, step.held.id);
    return;
  }
  const { team: _team, ...changes } = written(step, entry);
  if (step.action === 'create') {
    const { items } = await createTag(deps, principal, teamId, { ...changes, name: entry.name });
    const created = items.find((tag) => tag.name.toLowerCase() === entry.name.trim().toLowerCase());
    if (created) {
      ids.tags.set(ImportedIds.tagKey(entry), created.id);
    }
  } else if (step.held) {
    await updateTag(deps, principal, teamId, step.held.id, changes);
  }
}

/** A rule's conditions with custom fields named by slug turned back into their ids. */
function conditionsForApi(conditions: string[] | undefined, ids: ImportedIds): string[] | undefined {
  return conditions?.map((condition) =>
    swapConditionField(condition, (key) => (isIdKey(key) ? undefined : ids.ticketFieldId(key))),
  );
}

async function applyRoutingRule(deps: ApplyDeps, principal: Principal, step: PlannedStep<'routingRules'>, ids: ImportedIds) {
  const entry = (step.entry ?? step.held?.entry) as EntryOf<'routingRules'>;
  const teamId = ids.requireTeam(entry.team);
  if (step.action === 'delete' && step.held) {
    await deleteRule(deps, principal, teamId, step.held.id);
    return;
  }
  const { team: _team, resultTeam, fallbackTeam, andRules, orRules, ...changes } = written(step, entry);
  const input = {
    ...changes,
    ...(resultTeam !== undefined && { resultTeamId: ids.requireTeam(resultTeam) }),
    ...(fallbackTeam !== undefined && { fallbackTeamId: fallbackTeam && ids.requireTeam(fallbackTeam) }),
    ...(andRules !== undefined && { andRules: conditionsForApi(andRules, ids) }),
    ...(orRules !== undefined && { orRules: conditionsForApi(orRules, ids) }),
  };
  if (step.action === 'create') {
    await createRule(deps, principal, teamId, { ...input, name: entry.name, resultTeamId: ids.requireTeam(entry.resultTeam) });
  } else if (step.held) {
    await updateRule(deps, principal, teamId, step.held.id, input);
  }
}

/**
 * Moves every held rule whose evaluation order the import changes to an order no rule of its team
 * holds or is given, from the top of the range down, so that setting the final orders never meets
 * one still held by a rule about to move.
 */
async function parkReorderedRules(
  deps: ApplyDeps,
  principal: Principal,
  steps: PlannedStep[],
  context: { ids: ImportedIds; heldOrders: (number | undefined)[] },
) {
  const { ids, heldOrders } = context;
  const rules = steps.filter((step): step is PlannedStep<'routingRules'> => step.section === 'routingRules');
  const moving = rules.filter((step) => step.action === 'update' && step.fields.includes('evaluationOrder'));
  const used = new Set([...heldOrders, ...rules.map((step) => step.entry?.evaluationOrder)]);
  let free = MAX_EVALUATION_ORDER;
  for (const step of moving) {
    while (used.has(free)) {
      free -= 1;
    }
    used.add(free);
    const held = step.held;
    if (held) {
      await updateRule(deps, principal, ids.requireTeam(held.entry.team), held.id, { evaluationOrder: free });
    }
  }
}
