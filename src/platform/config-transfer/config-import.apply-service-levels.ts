import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { getSatisfactionSettings, putSatisfactionSettings } from '../satisfaction/satisfaction-settings.service.js';
import { MAX_POSITION } from '../sla-policies/sla-policy.schemas.js';
import { createPolicy, deletePolicy, updatePolicy } from '../sla-policies/sla-policy.service.js';
import { updateTicketStatus } from '../tickets/ticket.service.js';
import { listTeamOptions } from '../tickets/ticket-option.service.js';
import type { EntryOf, HeldConfiguration } from './config-export.service.js';
import { type ApplyDeps, type ImportedIds, written } from './config-import.context.js';
import type { PlannedStep } from './config-import.plan.js';
import { slaConditionForApi } from './config-references.js';

// The steps of the service-level sections, each through its feature's service in the import's
// transaction: a team's statuses (renamed, pausing SLA clocks or not), its survey settings, and
// the organization's SLA policies, parked at free positions first so that policies may swap places.

/** A status of the team by its key, its statuses seeded if the team has none yet (as a first ticket seeds them). */
async function statusIdOf(deps: ApplyDeps, principal: Principal, ids: ImportedIds, entry: EntryOf<'ticketStatuses'>) {
  const team = { id: ids.requireTeam(entry.team), organization_id: principal.organizationId };
  const statuses = await listTeamOptions(deps.db, deps, team, 'status');
  const status = statuses.find((option) => option.name === entry.name);
  if (!status) {
    throw AppError.notFound(`${entry.team} has no status "${entry.name}"`);
  }
  return status.id;
}

export async function applyTicketStatus(
  deps: ApplyDeps,
  principal: Principal,
  step: PlannedStep<'ticketStatuses'>,
  ids: ImportedIds,
) {
  const entry = step.entry as EntryOf<'ticketStatuses'>;
  const { team: _team, name: _name, ...changes } = written(step, entry);
  await updateTicketStatus(deps, principal, await statusIdOf(deps, principal, ids, entry), changes);
}

/** The settings as they are, with what the document gives (tags and priorities by name turned into the team's ids). */
export async function applySatisfactionSettings(
  deps: ApplyDeps,
  principal: Principal,
  step: PlannedStep<'satisfactionSettings'>,
  ids: ImportedIds,
) {
  const entry = step.entry as EntryOf<'satisfactionSettings'>;
  const teamId = ids.requireTeam(entry.team);
  const { team: _team, skipWhen, ...changes } = written(step, entry);
  const { teamId: _teamId, updatedAt: _updatedAt, ...current } = await getSatisfactionSettings(deps.db, principal, teamId);
  const tagIds = skipWhen?.tags?.map((name) => ids.tag({ team: entry.team, name }) ?? name);
  const priorityIds = skipWhen?.priorities && (await priorityIdsOf(ids, entry.team, skipWhen.priorities));
  await putSatisfactionSettings(deps, principal, teamId, {
    ...current,
    ...changes,
    skipWhen: { tagIds: tagIds ?? current.skipWhen.tagIds, priorityIds: priorityIds ?? current.skipWhen.priorityIds },
  });
}

async function priorityIdsOf(ids: ImportedIds, team: string, names: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const name of names) {
    found.push((await ids.option({ team, name }, 'priority')) ?? name);
  }
  return found;
}

/** A policy's conditions with custom fields and teams named by name turned back into their ids. */
function conditionsForApi(conditions: string[] | undefined, ids: ImportedIds): string[] | undefined {
  return conditions?.map((condition) => slaConditionForApi(condition, ids));
}

export async function applySlaPolicy(deps: ApplyDeps, principal: Principal, step: PlannedStep<'slaPolicies'>, ids: ImportedIds) {
  if (step.action === 'delete' && step.held) {
    await deletePolicy(deps, principal, step.held.id);
    return;
  }
  const entry = step.entry as EntryOf<'slaPolicies'>;
  const { andRules, orRules, targets, ...changes } = written(step, entry);
  const input = {
    ...changes,
    ...(andRules !== undefined && { andRules: conditionsForApi(andRules, ids) }),
    ...(orRules !== undefined && { orRules: conditionsForApi(orRules, ids) }),
    ...(targets !== undefined && { targets }),
  };
  if (step.action === 'create') {
    // The checks refused a new policy without targets.
    await createPolicy(deps, principal, { ...input, name: entry.name, targets: targets ?? {} });
  } else if (step.held) {
    await updatePolicy(deps, principal, step.held.id, input);
  }
}

/**
 * Moves every held policy whose position the import changes to a position no policy holds or is
 * given, from the top of the range down, so that setting the final positions never meets one
 * still held by a policy about to move. Every policy parked is moved again by its own step.
 */
export async function parkRepositionedPolicies(
  deps: ApplyDeps,
  principal: Principal,
  steps: PlannedStep[],
  held: HeldConfiguration,
) {
  const policies = steps.filter((step): step is PlannedStep<'slaPolicies'> => step.section === 'slaPolicies');
  const moving = policies.filter((step) => step.action === 'update' && step.fields.includes('position'));
  const used = new Set([
    ...held.slaPolicies.map((policy) => policy.entry.position),
    ...policies.map((step) => step.entry?.position),
  ]);
  let free = MAX_POSITION;
  for (const step of moving) {
    while (used.has(free)) {
      free -= 1;
    }
    used.add(free);
    if (step.held) {
      await updatePolicy(deps, principal, step.held.id, { position: free });
    }
  }
}
