import { Check, X } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import type { ConditionCatalog } from '../../ui/conditions/condition-catalog';
import { conditionDraft } from '../../ui/conditions/conditions';
import type { Simulation } from './routing-api';

type Evaluation = Simulation['ruleEvaluations'][number];
type Outcome = Evaluation['conditions'][number];

const AGENT_STEP: Record<Simulation['outcome'], (team: string, agent: string | null) => string> = {
  assigned: (_team, agent) => `Round robin would pick ${agent ?? 'an agent'}.`,
  explicit_agent: (_team, agent) => `The ticket names its agent: ${agent ?? 'an agent'}.`,
  manual: (team) => `${team} assigns by hand: the ticket would wait unassigned.`,
  team_closed: (team) => `${team} is closed now: the ticket would wait until it opens.`,
  no_eligible_agent: (team) => `Nobody in ${team} can take it now: the ticket would wait unassigned.`,
};

/** What routing would do with the sample ticket, step by step: each rule and condition, the team, the agent. */
export function SimulationResult({
  result,
  catalog,
  teamName,
}: {
  result: Simulation;
  catalog: ConditionCatalog;
  teamName: (id: string | null) => string;
}) {
  const headline = result.matchedRule
    ? `Rule “${result.matchedRule.name}” matched: the ticket goes to ${result.teamName}.`
    : `No rule matched: the ticket stays in ${result.teamName}.`;
  return (
    <section aria-label="Test result" className="flex flex-col gap-3 text-sm">
      <p role="status" className="font-medium">
        {headline}
      </p>
      {result.ruleEvaluations.length === 0 ? (
        <p className="text-zinc-500 dark:text-zinc-400">The team has no rules yet.</p>
      ) : (
        <ol aria-label="Rules evaluated" className="flex flex-col gap-2">
          {result.ruleEvaluations.map((evaluation, position) => (
            <RuleStep key={evaluation.ruleId} evaluation={evaluation} position={position} catalog={catalog} />
          ))}
        </ol>
      )}
      {result.hops.map((hop) => (
        <p key={`${hop.fromTeamId}-${hop.ruleId}`} className="text-zinc-600 dark:text-zinc-400">
          {teamName(hop.fromTeamId)} → {hop.toTeamId ? teamName(hop.toTeamId) : 'stays'} by “{hop.ruleName}”: {hop.note}.
        </p>
      ))}
      <div className="flex flex-col gap-1">
        <p className="font-medium">{AGENT_STEP[result.outcome](result.teamName, result.agentName)}</p>
        <ul aria-label="Members considered" className="flex flex-col gap-0.5 text-zinc-600 dark:text-zinc-400">
          {[...(result.team?.members ?? []), ...(result.fallbackSubTeam?.members ?? [])].map((member) => (
            <li key={member.userId}>
              {member.name}: {member.reason}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function RuleStep({ evaluation, position, catalog }: { evaluation: Evaluation; position: number; catalog: ConditionCatalog }) {
  const verdict = !evaluation.reached
    ? { label: 'Not reached', tone: 'neutral' as const }
    : evaluation.matched
      ? { label: 'Matched', tone: 'green' as const }
      : { label: 'No match', tone: 'amber' as const };
  return (
    <li
      aria-label={`${position + 1}. ${evaluation.ruleName}: ${verdict.label}`}
      className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800"
    >
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-medium">
          {position + 1}. {evaluation.ruleName}
        </span>
        <Badge tone={verdict.tone}>{verdict.label}</Badge>
        {evaluation.reached ? null : <span className="text-xs text-zinc-500">an earlier rule matched first</span>}
      </p>
      {evaluation.conditions.length === 0 ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">No conditions: matches every ticket.</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-0.5">
          {evaluation.conditions.map((outcome) => (
            <li key={`${outcome.group}-${outcome.index}`} className="flex items-start gap-1.5">
              {outcome.matched ? (
                <Check size={14} aria-hidden className="mt-0.5 shrink-0 text-emerald-600" />
              ) : (
                <X size={14} aria-hidden className="mt-0.5 shrink-0 text-red-600" />
              )}
              <span>
                {outcome.group === 'or' ? 'Any: ' : 'All: '}
                {describeOutcome(outcome, catalog)} — {outcome.matched ? 'holds' : 'does not hold'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function describeOutcome(outcome: Outcome, catalog: ConditionCatalog): string {
  if (outcome.problem || outcome.field === null || outcome.operator === null) {
    return `an unreadable condition (${outcome.problem ?? 'unknown'})`;
  }
  const value = outcome.value;
  return catalog.describe(
    conditionDraft(JSON.stringify({ field: outcome.field, operator: outcome.operator, value: value ?? undefined })),
  );
}
