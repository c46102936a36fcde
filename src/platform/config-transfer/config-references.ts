import { ULID_PATTERN } from '../../lib/ids.js';
import type { MacroActions } from '../macros/macro.schemas.js';
import type { ViewFilters } from '../views/view.filters.js';
import type { MacroActionsEntry, TeamOptionReference, ViewFiltersEntry } from './config.schemas.js';

// How the ids inside an object (a rule's condition on a custom field, a macro's tags, a view's
// teams) become the names a configuration document uses, and back. A reference the export cannot
// name (an archived team, a deleted tag) keeps the id it holds: the import passes it through as it
// is, and the feature judges it as its API would.

const ULID = new RegExp(ULID_PATTERN);

/** Names of what the organization holds, by id: what an export writes instead of ids. */
export interface DocumentNames {
  team(id: string): string | undefined;
  tag(id: string): TeamOptionReference | undefined;
  ticketFieldSlug(id: string): string | undefined;
  option(id: string): TeamOptionReference | undefined;
  userEmail(id: string): string | undefined;
}

/** Ids of what the names of a document stand for, once the objects before it exist. */
export interface DocumentIds {
  team(name: string): string | undefined;
  tag(reference: TeamOptionReference): string | undefined;
  ticketFieldId(slug: string): string | undefined;
  userId(email: string): string | undefined;
  option(reference: TeamOptionReference, kind: 'status' | 'priority'): Promise<string | undefined>;
}

const CUSTOM_FIELD_PREFIX = 'customfield.';

/** The condition's custom field key (an id or a slug), if it has one; undefined for any other condition. */
export function customFieldKeyOfCondition(text: string): string | undefined {
  const condition = parseObject(text);
  const field = condition?.field;
  if (typeof field !== 'string' || !field.toLowerCase().startsWith(CUSTOM_FIELD_PREFIX)) {
    return undefined;
  }
  return field.slice(CUSTOM_FIELD_PREFIX.length);
}

/** The condition with its custom field key swapped (`customField.<id>` ↔ `customField.<slug>`); others unchanged. */
export function swapConditionField(text: string, swap: (key: string) => string | undefined): string {
  const key = customFieldKeyOfCondition(text);
  const swapped = key === undefined ? undefined : swap(key);
  const condition = parseObject(text);
  if (swapped === undefined || !condition) {
    return text;
  }
  return JSON.stringify({ ...condition, field: `customField.${swapped}` });
}

/** A key that is a custom field's id rather than a slug (slugs are lower case). */
export function isIdKey(key: string): boolean {
  return ULID.test(key);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A macro's actions as the document names them: statuses and priorities by key, the agent by email, tags by name. */
export function macroActionsForDocument(actions: MacroActions, names: DocumentNames): MacroActionsEntry {
  const statusName = actions.statusId ? (names.option(actions.statusId)?.name ?? actions.statusId) : actions.statusName;
  const priorityName = actions.priorityId ? (names.option(actions.priorityId)?.name ?? actions.priorityId) : actions.priorityName;
  const agent = actions.assignedAgentId;
  return {
    ...(statusName !== undefined && { statusName }),
    ...(priorityName !== undefined && { priorityName }),
    ...(agent !== undefined && { assignedAgent: agent === null || agent === 'me' ? agent : (names.userEmail(agent) ?? agent) }),
    ...(actions.addTagIds !== undefined && { addTags: actions.addTagIds.map((id) => names.tag(id)?.name ?? id) }),
  };
}

/** A document's macro actions as the API takes them; `team` is the macro's, whose tags it names. */
export function macroActionsForApi(actions: MacroActionsEntry, team: string, ids: DocumentIds): MacroActions {
  const agent = actions.assignedAgent;
  return {
    ...(actions.statusName !== undefined && { statusName: actions.statusName }),
    ...(actions.priorityName !== undefined && { priorityName: actions.priorityName }),
    ...(agent !== undefined && { assignedAgentId: agent === null || agent === 'me' ? agent : (ids.userId(agent) ?? agent) }),
    ...(actions.addTags !== undefined && { addTagIds: actions.addTags.map((name) => ids.tag({ team, name }) ?? name) }),
  };
}

/** A view's filters as the document names them. */
export function viewFiltersForDocument(filters: ViewFilters, names: DocumentNames): ViewFiltersEntry {
  const { teamId, statusId, priorityId, assignedAgentId, tag, sort: _sort, ...plain } = filters;
  const entry: ViewFiltersEntry = {};
  const customFields: Record<string, string> = {};
  for (const [key, value] of Object.entries(plain)) {
    if (key.startsWith('cf.')) {
      const id = key.slice('cf.'.length);
      customFields[names.ticketFieldSlug(id) ?? id] = String(value);
    } else {
      Object.assign(entry, { [key]: value });
    }
  }
  return {
    ...(teamId !== undefined && { teams: teamId.map((id) => names.team(id) ?? id) }),
    ...(statusId !== undefined && { status: names.option(statusId) ?? { team: statusId, name: statusId } }),
    ...(priorityId !== undefined && { priority: names.option(priorityId) ?? { team: priorityId, name: priorityId } }),
    ...entry,
    ...(assignedAgentId !== undefined && {
      assignedAgent:
        assignedAgentId === 'none' || assignedAgentId === 'me'
          ? assignedAgentId
          : (names.userEmail(assignedAgentId) ?? assignedAgentId),
    }),
    ...(tag !== undefined && { tags: tag.map((value) => names.tag(value) ?? value) }),
    ...(Object.keys(customFields).length > 0 && { customFields }),
  };
}

/** A document's view filters as the API takes them. */
export async function viewFiltersForApi(entry: ViewFiltersEntry, ids: DocumentIds): Promise<ViewFilters> {
  const { teams, status, priority, assignedAgent, tags, customFields, ...plain } = entry;
  const filters: ViewFilters = { ...plain };
  if (teams !== undefined) {
    filters.teamId = teams.map((name) => ids.team(name) ?? name);
  }
  if (status !== undefined) {
    filters.statusId = (await ids.option(status, 'status')) ?? status.name;
  }
  if (priority !== undefined) {
    filters.priorityId = (await ids.option(priority, 'priority')) ?? priority.name;
  }
  if (assignedAgent !== undefined) {
    filters.assignedAgentId =
      assignedAgent === 'none' || assignedAgent === 'me' ? assignedAgent : (ids.userId(assignedAgent) ?? assignedAgent);
  }
  if (tags !== undefined) {
    filters.tag = tags.map((value) => (typeof value === 'string' ? value : (ids.tag(value) ?? value.name)));
  }
  for (const [slug, value] of Object.entries(customFields ?? {})) {
    filters[`cf.${ids.ticketFieldId(slug) ?? slug}`] = value;
  }
  return filters;
}

/** Every team a view's filters name. */
export function teamsOfViewFilters(entry: ViewFiltersEntry): string[] {
  const tagTeams = (entry.tags ?? []).flatMap((value) => (typeof value === 'string' ? [] : [value.team]));
  return [
    ...(entry.teams ?? []),
    ...(entry.status ? [entry.status.team] : []),
    ...(entry.priority ? [entry.priority.team] : []),
    ...tagTeams,
  ];
}

/** Operators whose value is a whole team or tag (an id or a name), not a piece of text: only theirs are references. */
const REFERENCE_OPERATORS = ['equals', 'not_equals', 'contains', 'not_contains', 'in'];

/**
 * The condition with each value of a reference field swapped (a `teamId` or `tags` condition's ids
 * for names, and back); unchanged, to the byte, when nothing swaps.
 */
function swapConditionValues(text: string, swaps: Record<string, (value: string) => string | undefined>): string {
  const condition = parseObject(text);
  const swap = typeof condition?.field === 'string' ? swaps[condition.field.toLowerCase()] : undefined;
  if (!condition || !swap || typeof condition.operator !== 'string') {
    return text;
  }
  if (!REFERENCE_OPERATORS.includes(condition.operator.toLowerCase())) {
    return text;
  }
  const swapOne = (value: unknown) => (typeof value === 'string' ? (swap(value) ?? value) : value);
  const value = Array.isArray(condition.value) ? condition.value.map(swapOne) : swapOne(condition.value);
  return canonicalJson(value) === canonicalJson(condition.value) ? text : JSON.stringify({ ...condition, value });
}

const canonicalJson = (value: unknown) => JSON.stringify(value) ?? '';

/** An SLA policy's condition as the document names it: a custom field by slug, teams and tags by name. */
export function slaConditionForDocument(text: string, names: DocumentNames): string {
  const named = swapConditionField(text, (key) => names.ticketFieldSlug(key));
  return swapConditionValues(named, { teamid: (id) => names.team(id), tags: (id) => names.tag(id)?.name });
}

/**
 * A document's SLA condition as the API takes it: custom fields and teams by id. Tags stay names,
 * which conditions match as they match ids; an id the export could not name passes as it is.
 */
export function slaConditionForApi(text: string, ids: DocumentIds): string {
  const swapped = swapConditionField(text, (key) => (isIdKey(key) ? undefined : ids.ticketFieldId(key)));
  return swapConditionValues(swapped, { teamid: (name) => (isIdKey(name) ? undefined : ids.team(name)) });
}

/** The teams and tags a condition names by name (ids left out: they pass as they are), for the import's checks. */
export function namedReferencesOfCondition(text: string): { teams: string[]; tags: string[] } {
  const found: { teams: string[]; tags: string[] } = { teams: [], tags: [] };
  const collect = (into: string[]) => (value: string) => {
    if (!isIdKey(value)) {
      into.push(value);
    }
    return undefined;
  };
  swapConditionValues(text, { teamid: collect(found.teams), tags: collect(found.tags) });
  return found;
}
