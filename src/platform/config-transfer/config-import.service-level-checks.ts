import { parseCondition, SLA_CONDITION_FIELDS } from '../routing-rules/routing-rule.conditions.js';
import type { ConfigDocument } from './config.schemas.js';
import type { EntryOf, HeldConfiguration } from './config-export.service.js';
import { TEAM_PRIORITY_KEYS } from './config-export.service-levels.js';
import type { ImportPlan } from './config-import.plan.js';
import { customFieldKeyOfCondition, isIdKey, namedReferencesOfCondition } from './config-references.js';

// The import's checks of the service-level sections (statuses, survey settings, SLA policies),
// before anything is written, each problem with the document path of what fails it.

/** What the organization will hold once the plan is applied, as `config-import.checks.ts` works it out. */
export interface ServiceLevelOutcome {
  /** Team name → its parent's name (null for a top-level team). */
  teams: Map<string, string | null>;
  /** `team\0name` in lower case. */
  tags: Set<string>;
  ticketFieldSlugs: Set<string>;
}

export interface ServiceLevelCheckContext {
  path: string;
  changed(field: string): boolean;
  outcome: ServiceLevelOutcome;
  problems: string[];
}

export const tagKey = (team: string, name: string) => `${team}\u0000${name.toLowerCase()}`;

const noTeam = (path: string, name: string) =>
  `${path} names no team: "${name}" is neither in the document nor an active team of the organization`;

/**
 * Statuses and survey settings belong to a team that must exist, whether or not they change
 * anything (an entry like what every team has plans no step, and would otherwise pass unseen).
 */
export function teamOfSettingsProblems(document: ConfigDocument, outcome: ServiceLevelOutcome): string[] {
  return (['ticketStatuses', 'satisfactionSettings'] as const).flatMap((section) =>
    (document[section] ?? []).flatMap((entry, index) =>
      outcome.teams.has(entry.team) ? [] : [noTeam(`${section}.${index}.team`, entry.team)],
    ),
  );
}

export const serviceLevelCheckers = {
  satisfactionSettings: (entry: EntryOf<'satisfactionSettings'>, context: ServiceLevelCheckContext) => {
    if (!context.changed('skipWhen') || !context.outcome.teams.has(entry.team)) {
      return;
    }
    const { path, outcome, problems } = context;
    (entry.skipWhen?.tags ?? []).forEach((name, index) => {
      if (!outcome.tags.has(tagKey(entry.team, name))) {
        problems.push(`${path}.skipWhen.tags.${index} names no tag of ${entry.team}: "${name}"`);
      }
    });
    (entry.skipWhen?.priorities ?? []).forEach((name, index) => {
      if (!isIdKey(name) && !TEAM_PRIORITY_KEYS.includes(name.toLowerCase())) {
        problems.push(
          `${path}.skipWhen.priorities.${index} names no priority: "${name}" is none of ${TEAM_PRIORITY_KEYS.join(', ')}`,
        );
      }
    });
  },
  slaPolicies: (entry: EntryOf<'slaPolicies'>, context: ServiceLevelCheckContext) => {
    const { path, outcome, problems } = context;
    const tagNames = new Set([...outcome.tags].map((key) => key.slice(key.indexOf('\u0000') + 1)));
    for (const list of ['andRules', 'orRules'] as const) {
      if (!context.changed(list)) {
        continue;
      }
      (entry[list] ?? []).forEach((condition, index) => {
        const at = `${path}.${list}.${index}`;
        const key = customFieldKeyOfCondition(condition);
        if (key !== undefined && !isIdKey(key) && !outcome.ticketFieldSlugs.has(key)) {
          problems.push(`${at} names no ticket custom field: "${key}" is no slug of one`);
        }
        const { teams, tags } = namedReferencesOfCondition(condition);
        for (const team of teams.filter((name) => !outcome.teams.has(name))) {
          problems.push(noTeam(at, team));
        }
        for (const tag of tags.filter((name) => !tagNames.has(name.toLowerCase()))) {
          problems.push(`${at} names no tag: "${tag}" is a tag of no team`);
        }
      });
    }
  },
};

/**
 * The rules of SLA policies that need no database: each condition parses (on the fields policies
 * match), a policy the import creates has targets, and no two policies share a position once the
 * import is done (the document's at the positions it gives, the others where they are).
 */
export function slaPolicyRuleProblems(held: HeldConfiguration, document: ConfigDocument, plan: ImportPlan): string[] {
  const problems: string[] = [];
  (document.slaPolicies ?? []).forEach((policy, index) => {
    for (const list of ['andRules', 'orRules'] as const) {
      (policy[list] ?? []).forEach((condition, position) => {
        const parsed = parseCondition(condition, SLA_CONDITION_FIELDS);
        if (!parsed.ok) {
          problems.push(`slaPolicies.${index}.${list}.${position} ${parsed.problem}`);
        }
      });
    }
  });
  for (const step of plan.steps) {
    if (step.section === 'slaPolicies' && step.action === 'create' && !(step.entry as EntryOf<'slaPolicies'>).targets) {
      problems.push(`${step.path}.targets is required: the import creates ${step.name}`);
    }
  }
  return [...problems, ...positionProblems(held, document, plan)];
}

function positionProblems(held: HeldConfiguration, document: ConfigDocument, plan: ImportPlan): string[] {
  const deleted = new Set(plan.steps.filter((step) => step.action === 'delete').map((step) => step.held));
  const holders = new Map<string, { path: string; position: number }>();
  for (const item of held.slaPolicies.filter((policy) => !deleted.has(policy))) {
    if (!holders.has(item.entry.name) && item.entry.position !== undefined) {
      const path = `policy "${item.entry.name}", which the document leaves as it is`;
      holders.set(item.entry.name, { path, position: item.entry.position });
    }
  }
  (document.slaPolicies ?? []).forEach((policy, index) => {
    const position = policy.position ?? holders.get(policy.name)?.position;
    holders.delete(policy.name);
    if (position !== undefined) {
      holders.set(policy.name, { path: `slaPolicies.${index}`, position });
    }
  });
  const problems: string[] = [];
  const taken = new Map<number, string>();
  for (const { path, position } of holders.values()) {
    const holder = taken.get(position);
    if (holder) {
      const [given, other] = path.startsWith('slaPolicies.') ? [path, holder] : [holder, path];
      problems.push(`${given}.position ${position} is taken by ${other}: each policy has its own`);
    }
    taken.set(position, path);
  }
  return problems;
}
