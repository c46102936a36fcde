import { useQueries, useQuery } from '@tanstack/react-query';
import { teamOptionsQuery, teamsQuery } from '../../api/ticket-options';
import type { Team } from '../../api/types';
import {
  type Choice,
  type ConditionCatalog,
  conditionCatalog,
  customFieldChoice,
  fieldChoice,
  optionChoices,
  useAccountChoices,
} from '../../ui/conditions/condition-catalog';
import { REQUESTOR_DOMAIN } from '../../ui/conditions/conditions';
import { allTicketFieldsQuery } from './sla-policy-api';
import { priorityKey } from './sla-policy-form';

export interface SlaChoices {
  /** What a policy's conditions can test, across the organization's teams. */
  catalog: ConditionCatalog;
  /** Every team's priorities by key (teams share the defaults), the rows of the targets table. */
  priorities: Choice[];
  teams: Team[];
  /** Whether the teams and each team's options are read. */
  ready: boolean;
  error: unknown;
}

/** One entry per name, in the order of the first team that has it. */
function byName(lists: readonly (readonly { name: string; displayName: string }[])[]): Choice[] {
  const seen = new Map<string, Choice>();
  for (const option of optionChoices(lists.flat())) {
    if (!seen.has(option.value)) {
      seen.set(option.value, option);
    }
  }
  return [...seen.values()];
}

/**
 * SLA policies belong to the organization, not to a team: their conditions pick from every team's
 * priorities, statuses and tags, and can test the ticket's team itself.
 */
export function useSlaChoices(): SlaChoices {
  const teams = useQuery(teamsQuery);
  const perTeam = useQueries({ queries: (teams.data ?? []).map((team) => teamOptionsQuery(team.id)) });
  const customFields = useQuery(allTicketFieldsQuery);
  const accounts = useAccountChoices();
  const loaded = perTeam.flatMap((result) => (result.data ? [result.data] : []));
  const teamName = new Map((teams.data ?? []).map((team) => [team.id, team.name]));
  const tags = loaded.flatMap((options) =>
    options.tags.map((tag) => ({ value: tag.id, label: `${tag.name} (${teamName.get(tag.teamId) ?? 'team'})` })),
  );
  const priorityNames = byName(loaded.map((options) => options.priorities));
  const priorities = priorityNames.map((priority) => ({ value: priorityKey(priority.label), label: priority.label }));
  const catalog = conditionCatalog(
    [
      fieldChoice(
        'teamId',
        'Team',
        'option',
        (teams.data ?? []).map((team) => ({ value: team.id, label: team.name })),
      ),
      fieldChoice('priority', 'Priority', 'option', priorityNames),
      fieldChoice('status', 'Status', 'option', byName(loaded.map((options) => options.statuses))),
      fieldChoice('title', 'Title', 'text'),
      fieldChoice('description', 'Description', 'text'),
      fieldChoice('source', 'Source', 'text'),
      fieldChoice('requestorEmail', 'Requestor email', 'text'),
      fieldChoice(REQUESTOR_DOMAIN, 'Requestor domain', 'domain'),
      { ...fieldChoice('accountId', 'Account', 'option', accounts.options), paged: true },
      fieldChoice('tags', 'Tags', 'tags', tags),
      ...(customFields.data ?? []).map(customFieldChoice),
    ],
    accounts.pages,
  );
  return {
    catalog,
    priorities,
    teams: teams.data ?? [],
    ready: teams.isSuccess && perTeam.every((result) => result.isSuccess),
    error: teams.error ?? customFields.error ?? perTeam.find((result) => result.error)?.error,
  };
}
