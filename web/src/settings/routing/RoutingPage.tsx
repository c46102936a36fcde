import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { FlaskConical, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { SelectField } from '../../ui/FormField';
import { PageHeader } from '../../ui/PageHeader';
import { RuleBuilder } from './RuleBuilder';
import { RuleList } from './RuleList';
import { type RoutingTeam, routingTeamsQuery, rulesQuery } from './routing-api';
import { TestTicketPanel } from './TestTicketPanel';
import { useConditionCatalog } from './use-condition-catalog';

/** What the address says: the team whose rules are shown, and the rule open in the builder (`new` for a new one). */
export interface RoutingSearch {
  teamId?: string;
  rule?: string;
}

/**
 * /settings/routing: a team's routing rules in evaluation order, the rule builder, and a sample
 * ticket run through the rules. The team and the open rule are in the address, so a page is linkable.
 */
export function RoutingPage() {
  const search = useSearch({ strict: false }) as RoutingSearch;
  const navigate = useNavigate();
  const teams = useQuery(routingTeamsQuery);
  const teamId = search.teamId && teams.data?.some((team) => team.id === search.teamId) ? search.teamId : undefined;
  const go = (next: RoutingSearch, options: { ignoreBlocker?: boolean } = {}) =>
    void navigate({ to: '/settings/routing', search: next, ...options });
  return (
    <div className="flex flex-col">
      <PageHeader
        title="Routing"
        description="Rules send a team's new tickets to other teams. They are tried in order; the first that matches wins."
        actions={
          teamId && !search.rule ? (
            <Button variant="primary" onClick={() => go({ teamId, rule: 'new' })}>
              <Plus size={14} aria-hidden />
              New rule
            </Button>
          ) : null
        }
      />
      <div className="flex flex-col gap-4 p-4">
        <ErrorNotice error={teams.error} />
        <SelectField
          label="Team"
          hint="The team whose incoming tickets the rules route."
          className="max-w-sm"
          value={teamId ?? ''}
          onChange={(event) => go(event.target.value ? { teamId: event.target.value } : {})}
          options={[
            { value: '', label: teams.isPending ? 'Loading teams…' : 'Choose a team…' },
            ...(teams.data ?? []).map((team) => ({ value: team.id, label: team.name })),
          ]}
        />
        {teams.data && teams.data.length === 0 ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            There are no teams yet. Create teams under Teams first; rules route tickets between them.
          </p>
        ) : null}
        {teams.data && teams.data.length > 0 && !teamId ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">Choose a team to see and edit its routing rules.</p>
        ) : null}
        {teamId ? (
          <TeamRouting
            key={teamId}
            teamId={teamId}
            ruleParam={search.rule}
            teams={teams.data ?? []}
            onOpenRule={(rule) => go({ teamId, rule })}
            onCloseRule={(saved) => go({ teamId }, { ignoreBlocker: saved })}
          />
        ) : null}
      </div>
    </div>
  );
}

function TeamRouting({
  teamId,
  ruleParam,
  teams,
  onOpenRule,
  onCloseRule,
}: {
  teamId: string;
  ruleParam: string | undefined;
  teams: RoutingTeam[];
  onOpenRule: (rule: string) => void;
  onCloseRule: (saved: boolean) => void;
}) {
  const rules = useQuery(rulesQuery(teamId));
  const catalog = useConditionCatalog(teamId);
  const [testing, setTesting] = useState(false);
  const teamName = (id: string | null) => teams.find((team) => team.id === id)?.name ?? 'an archived team';
  if (ruleParam) {
    const rule = rules.data?.find((candidate) => candidate.id === ruleParam);
    if (ruleParam !== 'new' && !rule) {
      return rules.isPending ? (
        <p className="text-sm text-zinc-500">Loading the rule…</p>
      ) : (
        <ErrorNotice error={rules.error ?? 'This rule no longer exists.'} />
      );
    }
    return (
      <RuleBuilder
        key={ruleParam}
        teamId={teamId}
        rule={rule}
        teams={teams}
        onSaved={() => onCloseRule(true)}
        onCancel={() => onCloseRule(false)}
      />
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <ErrorNotice error={rules.error} />
      {rules.isPending ? <p className="text-sm text-zinc-500">Loading rules…</p> : null}
      {rules.data && rules.data.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          This team has no routing rules: its tickets stay in it. Add one with “New rule”.
        </p>
      ) : null}
      {rules.data && rules.data.length > 0 ? (
        <RuleList teamId={teamId} rules={rules.data} teamName={teamName} onEdit={onOpenRule} />
      ) : null}
      <div>
        <Button aria-expanded={testing} onClick={() => setTesting(!testing)}>
          <FlaskConical size={14} aria-hidden />
          Test a ticket
        </Button>
      </div>
      {testing ? <TestTicketPanel teamId={teamId} catalog={catalog} teamName={teamName} /> : null}
    </div>
  );
}
