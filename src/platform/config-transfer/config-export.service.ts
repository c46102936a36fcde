import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { compareText } from '../../lib/order.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../authorization.js';
import { listCustomFields } from '../custom-fields/custom-field.service.js';
import { listUsableMacros } from '../macros/macro.service.js';
import { listMailboxesOf } from '../mailboxes/mailbox.service.js';
import { listRules } from '../routing-rules/routing-rule.service.js';
import { getStoredTeamConfiguration } from '../team-configurations/team-configuration.service.js';
import { listTags } from '../team-tags/team-tag.service.js';
import { listVisibleTeams } from '../teams/team.service.js';
import { listStoredTeamOptions } from '../tickets/ticket-option.service.js';
import { findLiveUser } from '../users/user.lookup.js';
import { listSharedViews } from '../views/view.service.js';
import { listOrganizationWebhooks } from '../webhooks/webhook.service.js';
import {
  CONFIG_VERSION,
  type ConfigDocument,
  type ConfigSection,
  type CustomFieldEntry,
  type MacroEntry,
  type TeamEntry,
  type TeamOptionReference,
  type ViewEntry,
} from './config.schemas.js';
import { readServiceLevels } from './config-export.service-levels.js';
import { type DocumentNames, macroActionsForDocument, swapConditionField, viewFiltersForDocument } from './config-references.js';

type Db = Kysely<DB> | Transaction<DB>;

/** The document entry of a section. */
export type EntryOf<S extends ConfigSection> = NonNullable<ConfigDocument[S]>[number];

/** An object the organization holds: its id, and the entry that describes it (custom fields: their version too). */
export interface Held<E> {
  id: string;
  entry: E;
  version?: number;
}

/** What the organization holds, section by section, each entry sorted by what it is matched by. */
export type HeldConfiguration = { [S in ConfigSection]: Held<EntryOf<S>>[] };

/**
 * The organization's set-up as one document, objects naming each other by name, slug or email,
 * without secrets: what `GET /v1/config/export` answers and `switchboard config export` prints.
 * Organization admins only.
 */
export async function exportConfiguration(db: Db, principal: Principal): Promise<Required<ConfigDocument>> {
  requireOrgAdmin(principal);
  return documentOf(await readConfiguration(db, principal));
}

export function documentOf(held: HeldConfiguration): Required<ConfigDocument> {
  const entries = <S extends ConfigSection>(section: S) => held[section].map((item) => item.entry);
  return {
    version: CONFIG_VERSION,
    teams: entries('teams'),
    teamTags: entries('teamTags'),
    teamConfigurations: entries('teamConfigurations'),
    ticketStatuses: entries('ticketStatuses'),
    satisfactionSettings: entries('satisfactionSettings'),
    routingRules: entries('routingRules'),
    slaPolicies: entries('slaPolicies'),
    customFields: entries('customFields'),
    macros: entries('macros'),
    views: entries('views'),
    mailboxes: entries('mailboxes'),
    webhooks: entries('webhooks'),
  };
}

/** Every page of a keyset-paged list, 100 at a time. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>) {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

const byKey =
  <E>(key: (entry: E) => string[]) =>
  (a: Held<E>, b: Held<E>) => {
    const [left, right] = [key(a.entry), key(b.entry)];
    return left.reduce((order, part, index) => order || compareText(part, right[index] ?? ''), 0);
  };

/**
 * Reads the organization's set-up through each feature's service, as the caller (an admin) sees
 * it: active teams and what is theirs (statuses and survey settings too), shared macros and views
 * of active teams, custom fields, SLA policies, mailboxes and webhooks. In `db`'s transaction when it is one (an import reads it under its lock).
 */
export async function readConfiguration(db: Db, principal: Principal): Promise<HeldConfiguration> {
  const teams = await readTeams(db, principal);
  const teamNames = new Map(teams.map((team) => [team.id, team.entry.name]));
  const customFields = await readCustomFields(db, principal, teamNames);
  const shared = await readSharedItems(db, principal, teamNames);
  const tagNames = new Map<string, TeamOptionReference>();
  const settings = await readTeamSettings(db, principal, teams, tagNames);
  const slugs = new Map(
    customFields.filter((field) => field.entry.source === 'ticket').map((field) => [field.id, field.entry.slug]),
  );
  const options = await readOptions(db, teamNames, shared);
  const emails = await readUserEmails(db, principal, shared);
  const names: DocumentNames = {
    team: (id) => teamNames.get(id),
    tag: (id) => tagNames.get(id),
    ticketFieldSlug: (id) => slugs.get(id),
    option: (id) => options.get(id),
    userEmail: (id) => emails.get(id),
  };
  return {
    teams,
    teamTags: settings.teamTags,
    teamConfigurations: settings.teamConfigurations.map((item) => ({
      ...item,
      entry: { ...item.entry, fallbackSubTeam: nameOrId(names.team, item.entry.fallbackSubTeam ?? null) },
    })),
    routingRules: settings.routingRules.map((item) => namedRule(item, names)),
    customFields,
    macros: shared.macros.map((macro) => namedMacro(macro, names)).sort(byKey((macro) => [macro.team, macro.name])),
    views: shared.views.map((view) => namedView(view, names)).sort(byKey((view) => [view.team, view.name])),
    ...(await readServiceLevels(db, principal, teams, names)),
    ...(await readChannels(db, principal, names)),
  };
}

/** The name of `id` when the lookup knows it, else the id itself (a reference the document cannot name). */
function nameOrId(lookup: (id: string) => string | undefined, id: string): string;
function nameOrId(lookup: (id: string) => string | undefined, id: string | null): string | null;
function nameOrId(lookup: (id: string) => string | undefined, id: string | null): string | null {
  return id === null ? null : (lookup(id) ?? id);
}

async function readTeams(db: Db, principal: Principal): Promise<Held<TeamEntry>[]> {
  const rows = await allPages((cursor) => listVisibleTeams(db, principal, { limit: 100, cursor }));
  const teams = rows.map((team) => ({
    id: team.id,
    entry: {
      name: team.name,
      identifier: team.identifier,
      parent: team.parentTeamName,
      description: team.description,
      icon: team.icon,
      color: team.color,
      isPrivate: team.isPrivate,
    },
  }));
  // Each top-level team, then its sub-teams, by name.
  return teams.sort(byKey((team) => [team.parent ?? team.name, team.parent === null ? '' : team.name]));
}

/**
 * Each team's tags, configuration (its hours as stored, without its AI agent) and routing rules,
 * with ids of teams still in them (`readConfiguration` names them); `tagNames` gets every tag.
 */
async function readTeamSettings(
  db: Db,
  principal: Principal,
  teams: Held<TeamEntry>[],
  tagNames: Map<string, TeamOptionReference>,
) {
  const settings: Pick<HeldConfiguration, 'teamTags' | 'teamConfigurations' | 'routingRules'> = {
    teamTags: [],
    teamConfigurations: [],
    routingRules: [],
  };
  for (const { id: teamId, entry: team } of teams) {
    for (const tag of (await listTags(db, principal, teamId)).items) {
      tagNames.set(tag.id, { team: team.name, name: tag.name });
      const entry = { team: team.name, name: tag.name, color: tag.color, type: tag.type, description: tag.description };
      settings.teamTags.push({ id: tag.id, entry });
    }
    const {
      teamId: _teamId,
      aiAgentId: _agent,
      aiAgentMode: _mode,
      createdAt: _created,
      updatedAt: _updated,
      ...configuration
    } = await getStoredTeamConfiguration(db, principal, teamId);
    settings.teamConfigurations.push({ id: teamId, entry: { team: team.name, ...configuration } });
    for (const rule of await listRules(db, principal, teamId)) {
      const entry = {
        team: team.name,
        name: rule.name,
        description: rule.description,
        evaluationOrder: rule.evaluationOrder,
        resultTeam: rule.resultTeamId,
        fallbackTeam: rule.fallbackTeamId,
        andRules: rule.andRules,
        orRules: rule.orRules,
      };
      settings.routingRules.push({ id: rule.id, entry });
    }
  }
  settings.teamTags.sort(byKey((tag) => [tag.team, tag.name.toLowerCase()]));
  settings.routingRules.sort(byKey((rule) => [rule.team, String(rule.evaluationOrder ?? 0).padStart(10, '0'), rule.name]));
  return settings;
}

function namedRule(item: Held<EntryOf<'routingRules'>>, names: DocumentNames): Held<EntryOf<'routingRules'>> {
  const slug = (key: string) => names.ticketFieldSlug(key);
  const { resultTeam, fallbackTeam = null, andRules = [], orRules = [] } = item.entry;
  return {
    ...item,
    entry: {
      ...item.entry,
      resultTeam: nameOrId(names.team, resultTeam),
      fallbackTeam: nameOrId(names.team, fallbackTeam),
      andRules: andRules.map((condition) => swapConditionField(condition, slug)),
      orRules: orRules.map((condition) => swapConditionField(condition, slug)),
    },
  };
}

async function readCustomFields(db: Db, principal: Principal, teamNames: Map<string, string>) {
  const rows = await allPages((cursor) => listCustomFields(db, principal, { limit: 100, cursor }));
  const fields: Held<CustomFieldEntry>[] = rows
    .filter((field) => field.teamId === null || teamNames.has(field.teamId))
    .map((field) => ({
      id: field.uid,
      version: field.version,
      entry: {
        source: field.source,
        slug: field.slug,
        name: field.name,
        team: nameOrId((id) => teamNames.get(id), field.teamId),
        fieldType: field.fieldType,
        options: field.options,
        metadata: field.metadata,
        description: field.description,
        isActive: field.isActive,
        placeholderText: field.placeholderText,
        hintText: field.hintText,
        defaultValue: field.defaultValue,
        regexForValidation: field.regexForValidation,
        mandatoryOnCreation: field.mandatoryOnCreation,
        mandatoryOnClose: field.mandatoryOnClose,
        visibleToCustomer: field.visibleToCustomer,
        editableByCustomer: field.editableByCustomer,
        autoAddToAllForms: field.autoAddToAllForms,
        lookup: field.lookup,
      },
    }));
  return fields.sort(byKey((field) => [field.source, field.slug]));
}

/** Macros and views shared with an active team (personal ones are their owners', and stay out). */
async function readSharedItems(db: Db, principal: Principal, teamNames: Map<string, string>) {
  const ofActiveTeam = <T extends { teamId: string | null }>(item: T): item is T & { teamId: string } =>
    item.teamId !== null && teamNames.has(item.teamId);
  const macros = await allPages((cursor) => listUsableMacros(db, principal, { limit: 100, cursor }));
  return { macros: macros.filter(ofActiveTeam), views: (await listSharedViews(db, principal)).filter(ofActiveTeam) };
}

type SharedItems = Awaited<ReturnType<typeof readSharedItems>>;

function namedMacro(macro: SharedItems['macros'][number], names: DocumentNames): Held<MacroEntry> {
  const entry = {
    team: nameOrId(names.team, macro.teamId),
    name: macro.name,
    description: macro.description,
    content: macro.content,
    commentVisibility: macro.commentVisibility,
    shouldSendEmail: macro.shouldSendEmail,
    actions: macroActionsForDocument(macro.actions, names),
  };
  return { id: macro.id, entry };
}

function namedView(view: SharedItems['views'][number], names: DocumentNames): Held<ViewEntry> {
  const entry = {
    team: nameOrId(names.team, view.teamId),
    name: view.name,
    filters: viewFiltersForDocument(view.filters, names),
    sort: view.sort,
  };
  return { id: view.id, entry };
}

/** Statuses and priorities of the active teams by id, read (without seeding any) only when a macro or view names one. */
async function readOptions(db: Db, teamNames: Map<string, string>, shared: SharedItems) {
  const options = new Map<string, TeamOptionReference>();
  const named = [
    ...shared.macros.map((macro) => [macro.actions.statusId, macro.actions.priorityId]),
    ...shared.views.map((view) => [view.filters.statusId, view.filters.priorityId]),
  ].flat();
  if (named.every((id) => id === undefined)) {
    return options;
  }
  for (const [teamId, team] of teamNames) {
    for (const kind of ['status', 'priority'] as const) {
      for (const option of await listStoredTeamOptions(db, teamId, kind)) {
        options.set(option.id, { team, name: option.name });
      }
    }
  }
  return options;
}

/** The emails of the users macros and views name by id. */
async function readUserEmails(db: Db, principal: Principal, shared: SharedItems) {
  const ids = new Set(
    [
      ...shared.macros.map((macro) => macro.actions.assignedAgentId),
      ...shared.views.map((view) => view.filters.assignedAgentId),
    ].filter((id): id is string => typeof id === 'string' && id !== 'me' && id !== 'none'),
  );
  const emails = new Map<string, string>();
  for (const id of ids) {
    const user = await findLiveUser(db, principal.organizationId, id);
    if (user) {
      emails.set(id, user.email);
    }
  }
  return emails;
}

async function readChannels(db: Db, principal: Principal, names: DocumentNames) {
  const mailboxes = await allPages((cursor) => listMailboxesOf(db, principal, { limit: 100, cursor }));
  const webhooks = await allPages((cursor) => listOrganizationWebhooks(db, principal, { limit: 100, cursor }));
  const channels: Pick<HeldConfiguration, 'mailboxes' | 'webhooks'> = {
    mailboxes: mailboxes.map((mailbox) => ({
      id: mailbox.id,
      entry: {
        address: mailbox.address,
        team: nameOrId(names.team, mailbox.teamId),
        displayName: mailbox.displayName,
        delivery: mailbox.delivery,
        isDefault: mailbox.isDefault,
        imap: mailbox.imap && {
          host: mailbox.imap.host,
          port: mailbox.imap.port,
          tls: mailbox.imap.tls,
          username: mailbox.imap.username,
          folder: mailbox.imap.folder,
          processedFolder: mailbox.imap.processedFolder,
        },
      },
    })),
    webhooks: webhooks.map((webhook) => ({
      id: webhook.id,
      entry: { url: webhook.url, eventTypes: webhook.eventTypes, description: webhook.description, enabled: webhook.enabled },
    })),
  };
  channels.mailboxes.sort(byKey((mailbox) => [mailbox.address]));
  channels.webhooks.sort(byKey((webhook) => [webhook.url]));
  return channels;
}
