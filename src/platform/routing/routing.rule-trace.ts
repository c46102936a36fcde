import {
  type ConditionValue,
  matchesCondition,
  parseCondition,
  type RoutingTicket,
} from '../routing-rules/routing-rule.conditions.js';
import type { RuleView } from './routing.engine.js';

/**
 * The explain endpoint's step-by-step account of one team's rules: for each rule in evaluation
 * order, whether routing reached it, whether it holds, and the outcome of each of its conditions.
 * Pure; it decides nothing (`chooseTeam` does), it only shows the same matching at work.
 */

export interface ConditionOutcome {
  group: 'and' | 'or';
  /** The condition's place in its list (`andRules[index]`). */
  index: number;
  field: string | null;
  operator: string | null;
  value: ConditionValue | ConditionValue[] | null;
  matched: boolean;
  /** Why a stored condition no longer reads (then it never matches, nor does its rule). */
  problem: string | null;
}

export interface RuleEvaluation {
  ruleId: string;
  ruleName: string;
  evaluationOrder: number;
  /** False for the rules after the first match: routing stops there. */
  reached: boolean;
  /** Whether the rule's conditions hold for the ticket (also for a rule not reached). */
  matched: boolean;
  conditions: ConditionOutcome[];
}

function outcomesOf(group: 'and' | 'or', texts: string[], ticket: RoutingTicket): ConditionOutcome[] {
  return texts.map((text, index) => {
    const parsed = parseCondition(text);
    if (!parsed.ok) {
      return { group, index, field: null, operator: null, value: null, matched: false, problem: parsed.problem };
    }
    const { field, operator, value } = parsed.condition;
    return {
      group,
      index,
      field,
      operator,
      value: value ?? null,
      matched: matchesCondition(parsed.condition, ticket),
      problem: null,
    };
  });
}

/** Every rule of the team, as routing would evaluate them for `ticket`: all `and` hold and, if any `or`, one of them. */
export function traceRules(rules: RuleView[], ticket: RoutingTicket): RuleEvaluation[] {
  let matchedBefore = false;
  return rules.map((rule) => {
    const and = outcomesOf('and', rule.andRules, ticket);
    const or = outcomesOf('or', rule.orRules, ticket);
    const readable = [...and, ...or].every((outcome) => outcome.problem === null);
    const matched =
      readable && and.every((outcome) => outcome.matched) && (or.length === 0 || or.some((outcome) => outcome.matched));
    const reached = !matchedBefore;
    matchedBefore ||= matched;
    return {
      ruleId: rule.id,
      ruleName: rule.name,
      evaluationOrder: rule.evaluationOrder,
      reached,
      matched,
      conditions: [...and, ...or],
    };
  });
}
