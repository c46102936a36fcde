import { useQueries, useQuery } from '@tanstack/react-query';
import { teamOptionsQuery, teamsQuery, usersQuery } from '../../api/ticket-options';

export interface Choice {
  value: string;
  label: string;
}

/** Names once each, in the order first seen (teams share the default statuses and priorities). */
function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) {
    if (!seen.has(name.toLowerCase())) {
      seen.set(name.toLowerCase(), name);
    }
  }
  return [...seen.values()];
}

/**
 * What a macro's actions choose from: the statuses, priorities and ticket tags of the team it is
 * shared with, or of every team for a personal macro (a status by name is matched in the ticket's
 * team when applied), and the organization's active people.
 */
export function useMacroChoices(teamId: string) {
  const teams = useQuery(teamsQuery);
  const users = useQuery(usersQuery);
  const scope = (teams.data ?? []).filter((team) => teamId === '' || team.id === teamId);
  const perTeam = useQueries({ queries: scope.map((team) => teamOptionsQuery(team.id)) });
  const loaded = perTeam.flatMap((result, index) => (result.data ? [{ team: scope[index], ...result.data }] : []));
  const tagLabel = (tagName: string, teamName: string | undefined) => (teamId === '' ? `${tagName} (${teamName})` : tagName);
  return {
    teams: teams.data ?? [],
    users: (users.data ?? []).filter((user) => !user.disabled),
    statuses: uniqueNames(loaded.flatMap((options) => options.statuses.map((status) => status.displayName))),
    priorities: uniqueNames(loaded.flatMap((options) => options.priorities.map((priority) => priority.displayName))),
    tags: loaded.flatMap((options) =>
      options.tags.map((tag): Choice => ({ value: tag.id, label: tagLabel(tag.name, options.team?.name) })),
    ),
    error: teams.error ?? users.error ?? perTeam.find((result) => result.error)?.error,
  };
}
