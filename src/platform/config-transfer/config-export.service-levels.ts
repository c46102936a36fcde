import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { Principal } from '../../lib/principal.js';
import type { SatisfactionSettings } from '../satisfaction/satisfaction.schemas.js';
import { defaultSatisfactionSettings, getSatisfactionSettings } from '../satisfaction/satisfaction-settings.service.js';
import { listPolicies } from '../sla-policies/sla-policy.service.js';
import { listStoredTeamOptions, TEAM_DEFAULT_OPTIONS } from '../tickets/ticket-option.service.js';
import type { TeamEntry } from './config.schemas.js';
import type { Held } from './config-export.service.js';
import { type DocumentNames, slaConditionForDocument } from './config-references.js';
import type { SatisfactionSettingsEntry, SlaPolicyEntry, TicketStatusEntry } from './config-sla.schemas.js';

// The service-level part of an export: each team's statuses (their names and SLA pausing) and
// survey settings, and the organization's SLA policies in evaluation order, named as the rest of
// the document names things.

type Db = Kysely<DB> | Transaction<DB>;

export interface ServiceLevels {
  ticketStatuses: Held<TicketStatusEntry>[];
  satisfactionSettings: Held<SatisfactionSettingsEntry>[];
  slaPolicies: Held<SlaPolicyEntry>[];
}

/** What a team has from the start, before any ticket or write seeds its statuses: the statuses every team is given. */
export function defaultStatusEntry(team: string, key: string): TicketStatusEntry | undefined {
  const seed = TEAM_DEFAULT_OPTIONS.status.find((status) => status.name === key);
  return seed && { team, name: seed.name, displayName: seed.displayName, pausesSla: seed.pausesSla ?? false };
}

/** What a team without survey settings of its own has: surveys off. */
export function defaultSettingsEntry(team: string): SatisfactionSettingsEntry {
  const { teamId: _teamId, updatedAt: _updatedAt, skipWhen: _skipWhen, ...settings } = defaultSatisfactionSettings('', '');
  return { team, ...settings, skipWhen: { tags: [], priorities: [] } };
}

/** The status keys every team has (statuses are renamed, never added). */
export const TEAM_STATUS_KEYS = TEAM_DEFAULT_OPTIONS.status.map((status) => status.name);

/** The priority keys every team has (priorities are never added or renamed). */
export const TEAM_PRIORITY_KEYS = TEAM_DEFAULT_OPTIONS.priority.map((priority) => priority.name);

export async function readServiceLevels(
  db: Db,
  principal: Principal,
  teams: Held<TeamEntry>[],
  names: DocumentNames,
): Promise<ServiceLevels> {
  const levels: ServiceLevels = { ticketStatuses: [], satisfactionSettings: [], slaPolicies: [] };
  for (const { id: teamId, entry: team } of teams) {
    levels.ticketStatuses.push(...(await readStatuses(db, teamId, team.name)));
    const settings = await getSatisfactionSettings(db, principal, teamId);
    levels.satisfactionSettings.push({ id: teamId, entry: await namedSettings(db, team.name, settings, names) });
  }
  for (const policy of await listPolicies(db, principal)) {
    const entry = {
      name: policy.name,
      description: policy.description,
      position: policy.position,
      andRules: policy.andRules.map((condition) => slaConditionForDocument(condition, names)),
      orRules: policy.orRules.map((condition) => slaConditionForDocument(condition, names)),
      targets: policy.targets,
      businessHours: policy.businessHours,
      aiRepliesCount: policy.aiRepliesCount,
      warningShare: policy.warningShare,
    };
    levels.slaPolicies.push({ id: policy.id, entry });
  }
  return levels;
}

/** The team's statuses as stored, in their order; a team whose statuses are not seeded yet has the defaults (id ''). */
async function readStatuses(db: Db, teamId: string, team: string): Promise<Held<TicketStatusEntry>[]> {
  const stored = await listStoredTeamOptions(db, teamId, 'status');
  if (stored.length === 0) {
    return TEAM_DEFAULT_OPTIONS.status.flatMap((seed) => {
      const entry = defaultStatusEntry(team, seed.name);
      return entry ? [{ id: '', entry }] : [];
    });
  }
  return stored.map((status) => ({
    id: status.id,
    entry: { team, name: status.name, displayName: status.display_name, pausesSla: readBoolean(status.pauses_sla) },
  }));
}

/**
 * A team's survey settings with tags and priorities by name. A tag deleted since it was chosen names
 * nothing a ticket can carry, and is left out; a priority is always the team's.
 */
async function namedSettings(
  db: Db,
  team: string,
  settings: SatisfactionSettings,
  names: DocumentNames,
): Promise<SatisfactionSettingsEntry> {
  const { tagIds, priorityIds } = settings.skipWhen;
  const priorities = priorityIds.length > 0 ? await listStoredTeamOptions(db, settings.teamId, 'priority') : [];
  return {
    team,
    enabled: settings.enabled,
    delayMinutes: settings.delayMinutes,
    samplingShare: settings.samplingShare,
    cooldownDays: settings.cooldownDays,
    skipWhen: {
      tags: tagIds.flatMap((id) => names.tag(id)?.name ?? []),
      priorities: priorityIds.map((id) => priorities.find((priority) => priority.id === id)?.name ?? id),
    },
  };
}
