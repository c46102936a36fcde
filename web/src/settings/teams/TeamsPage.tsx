import { Link } from '@tanstack/react-router';
import { Plus, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { ArchiveTeamDialog } from './ArchiveTeamDialog';
import { NewTeamDialog } from './NewTeamDialog';
import { RenameTeamDialog } from './RenameTeamDialog';
import { fetchTeamsPage, type Team, teamKeys } from './team-queries';

interface TeamBranch {
  team: Team;
  subTeams: Team[];
}

/**
 * Top-level teams with their sub-teams beneath. The API lists teams oldest first and a sub-team
 * is always made after its parent, so every loaded sub-team's parent is loaded too.
 */
function branchesOf(teams: readonly Team[]): TeamBranch[] {
  const branches = new Map<string, TeamBranch>();
  const orphans: TeamBranch[] = [];
  for (const team of teams) {
    const parent = team.parentTeamId ? branches.get(team.parentTeamId) : undefined;
    if (parent) {
      parent.subTeams.push(team);
    } else if (team.parentTeamId) {
      orphans.push({ team, subTeams: [] });
    } else {
      branches.set(team.id, { team, subTeams: [] });
    }
  }
  return [...branches.values(), ...orphans];
}

type Action = { kind: 'rename' | 'archive'; team: Team } | null;

export function TeamsPage() {
  const teams = useCursorPages(teamKeys.list, fetchTeamsPage);
  const branches = useMemo(() => branchesOf(teams.items), [teams.items]);
  const topLevel = useMemo(() => teams.items.filter((team) => !team.parentTeamId), [teams.items]);
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<Action>(null);
  return (
    <div>
      <PageHeader
        title="Teams"
        description="Teams own tickets: their members, tags, business hours and how tickets are assigned."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Plus size={14} aria-hidden />
            New team
          </Button>
        }
      />
      <div className="p-4">
        <ErrorNotice error={teams.error} />
        {teams.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading teams…</p> : null}
        {!teams.isPending && !teams.error && branches.length === 0 ? <EmptyTeams /> : null}
        {branches.length > 0 ? (
          <ul
            aria-label="Teams"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {branches.map((branch) => (
              <li key={branch.team.id}>
                <TeamLine team={branch.team} onAction={setAction} />
                {branch.subTeams.length > 0 ? (
                  <ul aria-label={`Sub-teams of ${branch.team.name}`} className="border-t border-zinc-100 dark:border-zinc-800">
                    {branch.subTeams.map((subTeam) => (
                      <li key={subTeam.id} className="pl-6">
                        <TeamLine team={subTeam} onAction={setAction} />
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={teams.hasMore} loading={teams.loadingMore} onLoadMore={teams.loadMore} />
      </div>
      <NewTeamDialog open={creating} onOpenChange={setCreating} parents={topLevel} />
      <RenameTeamDialog team={action?.kind === 'rename' ? action.team : null} onClose={() => setAction(null)} />
      <ArchiveTeamDialog team={action?.kind === 'archive' ? action.team : null} onClose={() => setAction(null)} />
    </div>
  );
}

function TeamLine({ team, onAction }: { team: Team; onAction: (action: Action) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2 px-3 py-2">
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <Link
          to="/settings/teams/$teamId"
          params={{ teamId: team.id }}
          className="truncate text-sm font-medium text-blue-700 hover:underline dark:text-blue-400"
        >
          {team.name}
        </Link>
        <Badge>{team.identifier}</Badge>
        {team.parentTeamName ? <span className="sr-only">sub-team of {team.parentTeamName}</span> : null}
        {team.isPrivate ? <Badge tone="amber">Private</Badge> : null}
      </div>
      <div className="flex gap-1">
        <Button variant="ghost" aria-label={`Rename ${team.name}`} onClick={() => onAction({ kind: 'rename', team })}>
          Rename
        </Button>
        <Button variant="ghost" aria-label={`Archive ${team.name}`} onClick={() => onAction({ kind: 'archive', team })}>
          Archive
        </Button>
      </div>
    </div>
  );
}

function EmptyTeams() {
  return (
    <div className="flex flex-col items-center gap-2 rounded-md border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700">
      <Users size={24} aria-hidden className="text-zinc-400" />
      <p className="text-sm font-medium">No teams yet</p>
      <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
        Create a team with "New team", then add its members, its business hours and how its tickets are assigned.
      </p>
    </div>
  );
}
