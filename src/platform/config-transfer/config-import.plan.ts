import {
  CONFIG_SECTIONS,
  type ConfigChange,
  type ConfigChangeKind,
  type ConfigDocument,
  type ConfigSection,
} from './config.schemas.js';
import type { EntryOf, Held, HeldConfiguration } from './config-export.service.js';
import { defaultSettingsEntry, defaultStatusEntry, TEAM_STATUS_KEYS } from './config-export.service-levels.js';

// What an import changes: the document's entries matched with what the organization holds (by
// name, team and name, source and slug, address or URL), compared field by field, in the order
// they can be applied. Pure: the caller reads what is held, under its lock, and applies the steps.

/** One change to apply: the entry at `path` of the document, the object held, or both. */
export interface PlannedStep<S extends ConfigSection = ConfigSection> {
  section: S;
  kind: ConfigChangeKind;
  name: string;
  action: ConfigChange['action'];
  fields: string[];
  /** Where the entry is in the document (`teams.2`), or, for a delete, the object's section and name. */
  path: string;
  entry?: EntryOf<S>;
  held?: Held<EntryOf<S>>;
  /** The order of application: what an object names is applied before it (see `phaseOf`). */
  phase: number;
}

export interface ImportPlan {
  steps: PlannedStep[];
  problems: string[];
}

interface SectionRules<S extends ConfigSection> {
  kind: ConfigChangeKind;
  /** What entries are matched by; two entries of the document may not share it. */
  key(entry: EntryOf<S>): string;
  /** How a change names the object. */
  label(entry: EntryOf<S>): string;
  /** Fields the API cannot change once the object exists: a difference is refused. */
  fixed?: string[];
  /** Nested objects compared (and changed) only in the keys the document gives. */
  partial?: string[];
  /** The entry as the service stores it, where that differs only in case (so that an import converges). */
  normalize?(entry: EntryOf<S>): EntryOf<S>;
  /** False for what exists as long as its team does (never deleted, even with prune). */
  prunable?: false;
  /**
   * What an entry matches when nothing held does, for what every team has from its start (the
   * statuses, survey settings that are off): compared with it rather than created. Undefined: it
   * names what no team has, a problem `unknown` words.
   */
  implicit?(entry: EntryOf<S>): EntryOf<S> | undefined;
  unknown?(entry: EntryOf<S>, path: string): string;
}

const lower = (text: string) => text.toLowerCase();
const ofTeam = (entry: { team: string; name: string }) => `${entry.team} / ${entry.name}`;

const RULES: { [S in ConfigSection]: SectionRules<S> } = {
  teams: {
    kind: 'team',
    key: (team) => team.name,
    label: (team) => team.name,
    fixed: ['parent'],
    normalize: (team) => (team.identifier === undefined ? team : { ...team, identifier: team.identifier.toUpperCase() }),
  },
  teamConfigurations: {
    kind: 'teamConfiguration',
    key: (configuration) => configuration.team,
    label: (configuration) => configuration.team,
    partial: ['dailyConfig'],
    prunable: false,
  },
  customFields: {
    kind: 'customField',
    key: (field) => `${field.source}\u0000${field.slug}`,
    label: (field) => `${field.source} / ${field.slug}`,
    fixed: ['fieldType', 'team', 'metadata', 'lookup'],
  },
  ticketStatuses: {
    kind: 'ticketStatus',
    key: (status) => `${status.team}\u0000${status.name}`,
    label: ofTeam,
    normalize: (status) => ({
      ...status,
      name: lower(status.name),
      ...(status.displayName !== undefined && { displayName: status.displayName.trim() }),
    }),
    prunable: false,
    implicit: (status) => defaultStatusEntry(status.team, status.name),
    unknown: (status, path) =>
      `${path}.name names no status of ${status.team}: "${status.name}" is none of ${TEAM_STATUS_KEYS.join(', ')}, ` +
      'the statuses every team has',
  },
  satisfactionSettings: {
    kind: 'satisfactionSettings',
    key: (settings) => settings.team,
    label: (settings) => settings.team,
    partial: ['skipWhen'],
    prunable: false,
    implicit: (settings) => defaultSettingsEntry(settings.team),
  },
  slaPolicies: { kind: 'slaPolicy', key: (policy) => policy.name, label: (policy) => policy.name },
  teamTags: { kind: 'teamTag', key: (tag) => `${tag.team}\u0000${lower(tag.name)}`, label: ofTeam },
  routingRules: { kind: 'routingRule', key: (rule) => `${rule.team}\u0000${rule.name}`, label: ofTeam },
  macros: { kind: 'macro', key: (macro) => `${macro.team}\u0000${macro.name}`, label: ofTeam },
  views: { kind: 'view', key: (view) => `${view.team}\u0000${view.name}`, label: ofTeam },
  mailboxes: {
    kind: 'mailbox',
    key: (mailbox) => lower(mailbox.address),
    label: (mailbox) => lower(mailbox.address),
    partial: ['imap'],
    normalize: (mailbox) => ({ ...mailbox, address: lower(mailbox.address) }),
  },
  webhooks: { kind: 'webhook', key: (webhook) => webhook.url, label: (webhook) => webhook.url },
};

/** JSON with sorted keys and without undefined, so that equal values compare equal whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Whether the document's value changes the held one: nested `partial` objects only in the keys the document gives. */
function changes(wanted: unknown, held: unknown, partial: boolean): boolean {
  if (partial && wanted && held && typeof wanted === 'object' && typeof held === 'object') {
    const heldObject = held as Record<string, unknown>;
    return Object.entries(wanted).some(([key, value]) => value !== undefined && canonical(value) !== canonical(heldObject[key]));
  }
  return canonical(wanted) !== canonical(held);
}

const givenFields = (entry: object) =>
  Object.entries(entry)
    .filter(([, value]) => value !== undefined)
    .map(([field]) => field);

/** Where deletions start, after every create and update; and what writes to the event log, last of all. */
const DELETIONS = 200;
const EVENT_LOG = 300;

/**
 * The order of application. Teams first (top-level ones before sub-teams), then what names them:
 * configurations, statuses, custom fields, tags, survey settings, routing rules and SLA policies
 * (deleted ones first, freeing their orders; updated policies before new ones, which may take the
 * place after the last), macros, views, mailboxes, webhooks; then deletions (sub-teams archived
 * before their parents); last, what writes to the event log (tags leaving tickets), whose lock
 * every writer takes last.
 */
function phaseOf(step: Omit<PlannedStep, 'phase'>, subTeam: boolean): number {
  const deletions: ConfigSection[] = ['webhooks', 'mailboxes', 'views', 'macros', 'customFields', 'teams'];
  if (step.section === 'teamTags' && (step.action === 'delete' || leavesTickets(step as PlannedStep<'teamTags'>))) {
    return step.action === 'delete' ? EVENT_LOG + 1 : EVENT_LOG;
  }
  const base = 10 * (CONFIG_SECTIONS.indexOf(step.section) + 1);
  if (step.section === 'routingRules') {
    return step.action === 'delete' ? base - 1 : base;
  }
  if (step.section === 'slaPolicies') {
    return base - ({ delete: 2, update: 1, create: 0 } as const)[step.action];
  }
  if (step.action === 'delete') {
    return DELETIONS + deletions.indexOf(step.section) + (step.section === 'teams' && !subTeam ? 1 : 0);
  }
  return base + (step.section === 'teams' && subTeam ? 1 : 0);
}

/** A tag whose type becomes skills leaves every ticket it was on, and their timelines record it. */
export function leavesTickets(step: PlannedStep<'teamTags'>): boolean {
  return (
    step.action === 'update' &&
    step.fields.includes('type') &&
    step.entry?.type !== 'ticket' &&
    step.held?.entry.type === 'ticket'
  );
}

/**
 * The steps that make the organization hold what the document says, in application order, and
 * the entries that cannot be applied (a repeated key, a field the API cannot change). Sections the
 * document leaves out are left as they are; with `prune`, what a section of the document leaves
 * out is deleted (teams archived, their tags, rules, configuration and shared items kept with them).
 */
export function planImport(held: HeldConfiguration, document: ConfigDocument, options: { prune: boolean }): ImportPlan {
  const problems: string[] = [];
  const steps: Omit<PlannedStep, 'phase'>[] = [];
  const archived = new Set<string>();
  for (const section of CONFIG_SECTIONS) {
    const planned = planSection(section, held[section], document[section], { ...options, archived });
    problems.push(...planned.problems);
    steps.push(...planned.steps);
    if (section === 'teams') {
      for (const step of planned.steps.filter((step) => step.action === 'delete')) {
        archived.add(step.name);
      }
    }
  }
  const isSubTeam = (step: Omit<PlannedStep, 'phase'>) => {
    const parent = (team?: object) => (team as EntryOf<'teams'> | undefined)?.parent;
    return step.section === 'teams' && Boolean(parent(step.entry) ?? parent(step.held?.entry));
  };
  const phased = steps.map((step, index) => ({ ...step, phase: phaseOf(step, isSubTeam(step)), index }));
  phased.sort((a, b) => a.phase - b.phase || a.index - b.index);
  return { steps: phased.map(({ index: _index, ...step }) => step), problems };
}

function planSection<S extends ConfigSection>(
  section: S,
  heldItems: Held<EntryOf<S>>[],
  entries: EntryOf<S>[] | undefined,
  options: { prune: boolean; archived: Set<string> },
): { steps: Omit<PlannedStep<S>, 'phase'>[]; problems: string[] } {
  const rules = RULES[section] as SectionRules<S>;
  const problems: string[] = [];
  const steps: Omit<PlannedStep<S>, 'phase'>[] = [];
  const unmatched = new Map<string, Held<EntryOf<S>>>();
  for (const item of heldItems) {
    const key = rules.key(item.entry);
    if (!unmatched.has(key)) {
      unmatched.set(key, item);
    }
  }
  const seen = new Map<string, number>();
  const matched = new Set<Held<EntryOf<S>>>();
  for (const [index, given] of (entries ?? []).entries()) {
    const entry = rules.normalize ? rules.normalize(given) : given;
    const path = `${section}.${index}`;
    const key = rules.key(entry);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`${path} repeats ${section}.${first} (${rules.label(entry)}): each is matched by it, so it may appear once`);
      continue;
    }
    seen.set(key, index);
    const held = unmatched.get(key);
    unmatched.delete(key);
    if (held) {
      matched.add(held);
    }
    const implicit = held || !rules.implicit ? undefined : rules.implicit(entry);
    if (!held && rules.implicit && !implicit) {
      problems.push(rules.unknown?.(entry, path) ?? `${path} names what no team has`);
      continue;
    }
    const item = held ?? (implicit && { id: '', entry: implicit });
    const base = { section, kind: rules.kind, name: rules.label(entry), path, entry };
    if (!item) {
      steps.push({ ...base, action: 'create', fields: givenFields(entry) });
      continue;
    }
    const fields = givenFields(entry).filter((field) =>
      changes(
        entry[field as keyof typeof entry],
        item.entry[field as keyof typeof item.entry],
        rules.partial?.includes(field) ?? false,
      ),
    );
    for (const field of fields.filter((name) => rules.fixed?.includes(name))) {
      const was = canonical(item.entry[field as keyof typeof item.entry]);
      problems.push(`${path}.${field} cannot change once ${rules.label(entry)} exists (it is ${was})`);
    }
    if (fields.length > 0) {
      steps.push({ ...base, action: 'update', fields, held: item });
    }
  }
  if (options.prune && entries !== undefined && rules.prunable !== false) {
    // Held objects repeating a key (the API does not keep names unique) are left out too.
    for (const item of heldItems.filter((held) => !matched.has(held))) {
      const team = (item.entry as { team?: string | null }).team;
      if (section !== 'teams' && typeof team === 'string' && options.archived.has(team)) {
        continue;
      }
      steps.push({
        section,
        kind: rules.kind,
        name: rules.label(item.entry),
        action: 'delete',
        fields: [],
        path: `${section}`,
        held: item,
      });
    }
  }
  return { steps, problems };
}
