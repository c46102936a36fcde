import { AppError } from '../../lib/errors.js';
import { type OutboundPolicy, staticUrlProblem } from '../../lib/guarded-fetch.js';
import { EVENT_TYPES } from '../../shared/event-types.js';
import { validateHours } from '../business-hours/hours.js';
import { parseCondition } from '../routing-rules/routing-rule.conditions.js';
import type { ConfigDocument, ConfigSection, TeamOptionReference } from './config.schemas.js';
import type { EntryOf, HeldConfiguration } from './config-export.service.js';
import type { ImportPlan, PlannedStep } from './config-import.plan.js';
import {
  serviceLevelCheckers,
  slaPolicyRuleProblems,
  tagKey,
  teamOfSettingsProblems,
} from './config-import.service-level-checks.js';
import { customFieldKeyOfCondition, isIdKey, teamsOfViewFilters } from './config-references.js';

// The checks an import makes before it writes anything, each reported with the document path of
// what fails it, all at once: secrets, references to what neither the document nor the
// organization holds, and the features' own rules that need no database (hours, conditions,
// webhook URLs). What needs the database is judged by the features' services as the import
// applies, exactly as their API would judge the same object.

/** Keys that hold a secret (compared without case and separators): never taken in, wherever they are. */
const SECRET_KEY_WORDS = ['password', 'passwd', 'secret', 'apikey', 'token', 'privatekey', 'credential'];

/**
 * Maps whose keys are the organization's data, not the format's: a custom field's free-form
 * `metadata` (exported as it is stored) and a view's filters by custom field slug.
 */
const FREE_FORM = [/^customFields\.\d+\.metadata$/, /^views\.\d+\.filters\.customFields$/];

/** `mailboxes.0.imap.password is a secret …`, for every key of `raw` that names one, with their paths. */
export function secretProblems(raw: unknown, path: string[] = []): { path: string; problem: string }[] {
  if (raw === null || typeof raw !== 'object' || FREE_FORM.some((pattern) => pattern.test(path.join('.')))) {
    return [];
  }
  return Object.entries(raw).flatMap(([key, value]) => {
    const at = [...path, key];
    const word = key.toLowerCase().replace(/[^a-z]/g, '');
    if (!Array.isArray(raw) && SECRET_KEY_WORDS.some((secret) => word.includes(secret))) {
      const problem = `${at.join('.')} is a secret: secrets are never part of a configuration document (set them through the API)`;
      return [{ path: at.join('.'), problem }];
    }
    return secretProblems(value, at);
  });
}

/** What the organization will hold once the plan is applied: the names later entries may refer to. */
interface Outcome {
  /** Team name → its parent's name (null for a top-level team). */
  teams: Map<string, string | null>;
  /** `team\0name` in lower case. */
  tags: Set<string>;
  ticketFieldSlugs: Set<string>;
  userEmails: Set<string>;
}

function outcomeOf(held: HeldConfiguration, document: ConfigDocument, plan: ImportPlan, userEmails: Set<string>): Outcome {
  const deleted = new Set(plan.steps.filter((step) => step.action === 'delete').map((step) => step.held));
  const kept = <S extends ConfigSection>(section: S) =>
    held[section].filter((item) => !deleted.has(item)).map((item) => item.entry);
  const teams = new Map(kept('teams').map((team) => [team.name, team.parent ?? null]));
  for (const team of document.teams ?? []) {
    teams.set(team.name, team.parent !== undefined ? team.parent : (teams.get(team.name) ?? null));
  }
  const tags = new Set([...kept('teamTags'), ...(document.teamTags ?? [])].map((tag) => tagKey(tag.team, tag.name)));
  const ticketFieldSlugs = new Set(
    [...kept('customFields'), ...(document.customFields ?? [])]
      .filter((field) => field.source === 'ticket')
      .map((field) => field.slug),
  );
  return { teams, tags, ticketFieldSlugs, userEmails };
}

/** The document's references that name nothing: checked on what the import creates or changes. */
export function referenceProblems(
  held: HeldConfiguration,
  document: ConfigDocument,
  plan: ImportPlan,
  userEmails: Set<string>,
): string[] {
  const outcome = outcomeOf(held, document, plan, userEmails);
  return [
    ...orphanProblems(document, outcome),
    ...teamOfSettingsProblems(document, outcome),
    ...plan.steps.flatMap((step) => (step.entry ? referencesOf(step, outcome) : [])),
  ];
}

/** Sub-teams whose parent the organization will not have: unknown, or archived by prune (the document keeps it otherwise). */
function orphanProblems(document: ConfigDocument, outcome: Outcome): string[] {
  return (document.teams ?? []).flatMap((team, index) => {
    const parent = outcome.teams.get(team.name);
    if (typeof parent !== 'string' || outcome.teams.has(parent)) {
      return [];
    }
    return team.parent === undefined
      ? [`teams.${index} is a sub-team of "${parent}", which the document leaves out: prune would archive it (name its parent)`]
      : [`teams.${index}.parent names no team: "${parent}" is neither in the document nor an active team of the organization`];
  });
}

function referencesOf(step: PlannedStep, outcome: Outcome): string[] {
  const problems: string[] = [];
  const changed = (field: string) => step.fields.includes(field);
  const team = (field: string, name: string | null | undefined) => {
    if (typeof name === 'string' && !outcome.teams.has(name)) {
      problems.push(
        `${step.path}.${field} names no team: "${name}" is neither in the document nor an active team of the organization`,
      );
    }
  };
  const entry = step.entry as Record<string, unknown> & { team?: string | null };
  if (changed('team')) {
    team('team', entry.team);
  }
  const check = checkers[step.section];
  check?.(entry as never, { path: step.path, changed, team, outcome, problems });
  return problems;
}

interface CheckContext {
  path: string;
  changed(field: string): boolean;
  team(field: string, name: string | null | undefined): void;
  outcome: Outcome;
  problems: string[];
}

const checkers: { [S in ConfigSection]?: (entry: EntryOf<S>, context: CheckContext) => void } = {
  ...serviceLevelCheckers,
  teams: (entry, { path, changed, outcome, problems }) => {
    if (!changed('parent') || !entry.parent) {
      return;
    }
    // Whether the parent exists is checked for every team of the document (`orphanProblems`).
    const grandparent = outcome.teams.get(entry.parent);
    if (entry.parent === entry.name || (grandparent !== undefined && grandparent !== null)) {
      problems.push(`${path}.parent must be a top-level team: sub-teams nest one level ("${entry.parent}" is a sub-team)`);
    }
  },
  teamConfigurations: (entry, { path, changed, team, outcome, problems }) => {
    if (changed('fallbackSubTeam') && entry.fallbackSubTeam) {
      team('fallbackSubTeam', entry.fallbackSubTeam);
      const parent = outcome.teams.get(entry.fallbackSubTeam);
      if (parent !== undefined && parent !== entry.team) {
        problems.push(`${path}.fallbackSubTeam must be a sub-team of ${entry.team}: "${entry.fallbackSubTeam}" is not`);
      }
    }
  },
  routingRules: (entry, context) => {
    if (context.changed('resultTeam')) {
      context.team('resultTeam', entry.resultTeam);
    }
    if (context.changed('fallbackTeam')) {
      context.team('fallbackTeam', entry.fallbackTeam);
    }
    for (const list of ['andRules', 'orRules'] as const) {
      if (context.changed(list)) {
        (entry[list] ?? []).forEach((condition, index) => {
          const key = customFieldKeyOfCondition(condition);
          if (key !== undefined && !isIdKey(key) && !context.outcome.ticketFieldSlugs.has(key)) {
            context.problems.push(`${context.path}.${list}.${index} names no ticket custom field: "${key}" is no slug of one`);
          }
        });
      }
    }
  },
  macros: (entry, { path, changed, outcome, problems }) => {
    const actions = entry.actions ?? {};
    if (!changed('actions')) {
      return;
    }
    (actions.addTags ?? []).forEach((name, index) => {
      if (!outcome.tags.has(tagKey(entry.team, name))) {
        problems.push(`${path}.actions.addTags.${index} names no tag of ${entry.team}: "${name}"`);
      }
    });
    userReference(`${path}.actions.assignedAgent`, actions.assignedAgent, outcome, problems);
  },
  views: (entry, { path, changed, team, outcome, problems }) => {
    const filters = entry.filters ?? {};
    if (!changed('filters')) {
      return;
    }
    for (const name of teamsOfViewFilters(filters)) {
      team('filters', name);
    }
    (filters.tags ?? []).forEach((tag, index) => {
      if (typeof tag !== 'string' && !outcome.tags.has(tagKey(tag.team, tag.name))) {
        problems.push(`${path}.filters.tags.${index} names no tag: ${describe(tag)}`);
      }
    });
    for (const slug of Object.keys(filters.customFields ?? {})) {
      if (!outcome.ticketFieldSlugs.has(slug)) {
        problems.push(`${path}.filters.customFields.${slug} names no ticket custom field: "${slug}" is no slug of one`);
      }
    }
    userReference(`${path}.filters.assignedAgent`, filters.assignedAgent, outcome, problems);
  },
};

const describe = (reference: TeamOptionReference) => `${reference.team} / ${reference.name}`;

function userReference(path: string, email: string | null | undefined, outcome: Outcome, problems: string[]): void {
  if (typeof email === 'string' && email !== 'me' && email !== 'none' && !outcome.userEmails.has(email.toLowerCase())) {
    problems.push(`${path} names no user: "${email}" is not a user of the organization`);
  }
}

/** The emails the document names users by, to look up before planning. */
export function userEmailsOf(document: ConfigDocument): string[] {
  const emails = [
    ...(document.macros ?? []).map((macro) => macro.actions?.assignedAgent),
    ...(document.views ?? []).map((view) => view.filters?.assignedAgent),
  ];
  return [...new Set(emails.filter((email): email is string => typeof email === 'string' && email.includes('@')))];
}

/**
 * The features' rules that need no database, on every entry: business hours (slots, holidays,
 * time zone), routing and SLA policy conditions, webhook URLs and event types; and the document's own
 * consistency (one default mailbox, one rule per evaluation order of a team).
 */
export function ruleProblems(
  held: HeldConfiguration,
  document: ConfigDocument,
  plan: ImportPlan,
  policy: OutboundPolicy,
): string[] {
  const problems: string[] = [];
  const judged = (path: string, check: () => void) => {
    try {
      check();
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'VALIDATION') {
        throw error;
      }
      const issue = error.issues?.[0];
      problems.push(issue ? `${[path, ...issue.path].join('.')} ${issue.message}` : `${path}: ${error.message}`);
    }
  };
  (document.teamConfigurations ?? []).forEach((configuration, index) => {
    judged(`teamConfigurations.${index}`, () => validateHours(configuration));
  });
  (document.routingRules ?? []).forEach((rule, index) => {
    for (const list of ['andRules', 'orRules'] as const) {
      (rule[list] ?? []).forEach((condition, position) => {
        const parsed = parseCondition(condition);
        if (!parsed.ok) {
          problems.push(`routingRules.${index}.${list}.${position} ${parsed.problem}`);
        }
      });
    }
  });
  (document.webhooks ?? []).forEach((webhook, index) => {
    const problem = staticUrlProblem(webhook.url, policy, `webhooks.${index}.url`);
    if (problem) {
      problems.push(problem);
    }
    webhook.eventTypes.forEach((type, position) => {
      if (!(EVENT_TYPES as readonly string[]).includes(type)) {
        problems.push(
          `webhooks.${index}.eventTypes.${position} "${type}" is not an event type (known: ${EVENT_TYPES.join(', ')})`,
        );
      }
    });
  });
  (document.mailboxes ?? []).forEach((mailbox, index) => {
    // As the mailbox API has it: IMAP settings with delivery imap (which needs them), and only then.
    if (mailbox.delivery === 'imap' && mailbox.imap === null) {
      problems.push(`mailboxes.${index}.imap is required for delivery imap`);
    } else if (mailbox.delivery === 'smtp' && mailbox.imap) {
      problems.push(`mailboxes.${index}.imap settings are only for delivery imap`);
    }
  });
  const defaults = (document.mailboxes ?? []).flatMap((mailbox, index) => (mailbox.isDefault ? [`mailboxes.${index}`] : []));
  if (defaults.length > 1) {
    problems.push(
      `${defaults.slice(1).join(', ')}: isDefault is true for ${defaults[0]} already; one mailbox at most is the default`,
    );
  }
  return [...problems, ...slaPolicyRuleProblems(held, document, plan), ...orderProblems(held, document, plan)];
}

/**
 * Two rules of a team may not share an evaluation order once the import is done: the document's
 * rules at the orders it gives, the others (kept, or not given one) where they are.
 */
function orderProblems(held: HeldConfiguration, document: ConfigDocument, plan: ImportPlan): string[] {
  const deleted = new Set(plan.steps.filter((step) => step.action === 'delete').map((step) => step.held));
  const ruleKey = (rule: { team: string; name: string }) => `${rule.team}\u0000${rule.name}`;
  const holders = new Map<string, { path: string; order: number | undefined }>();
  for (const item of held.routingRules.filter((rule) => !deleted.has(rule))) {
    const key = ruleKey(item.entry);
    if (!holders.has(key)) {
      holders.set(key, {
        path: `rule "${item.entry.name}" of ${item.entry.team}, which the document leaves as it is`,
        order: item.entry.evaluationOrder,
      });
    }
  }
  (document.routingRules ?? []).forEach((rule, index) => {
    const kept = holders.get(ruleKey(rule));
    holders.set(ruleKey(rule), { path: `routingRules.${index}`, order: rule.evaluationOrder ?? kept?.order });
  });
  const problems: string[] = [];
  const taken = new Map<string, string>();
  for (const [key, { path, order }] of holders) {
    if (order === undefined) {
      continue;
    }
    const slot = `${key.split('\u0000')[0]}\u0000${order}`;
    const holder = taken.get(slot);
    if (holder && path.startsWith('routingRules.')) {
      problems.push(`${path}.evaluationOrder ${order} is taken by ${holder}: each rule of a team has its own`);
    } else if (holder) {
      problems.push(`${holder}.evaluationOrder ${order} is taken by ${path}: each rule of a team has its own`);
    }
    taken.set(slot, path);
  }
  return problems;
}
