import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useDeferredValue, useId, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { AddMemberDialog } from './AddMemberDialog';
import { MemberRow } from './MemberRow';
import { TimeZoneOptions } from './TimeZoneOptions';
import { fetchMembersPage, type TeamMember, teamKeys } from './team-queries';

/** The team's members, a page at a time (searched by the API), each with the settings routing reads. */
export function MembersPanel({ teamId, teamName }: { teamId: string; teamName: string }) {
  const [search, setSearch] = useState('');
  const wanted = useDeferredValue(search.trim());
  const members = useCursorPages(teamKeys.members(teamId, wanted), fetchMembersPage(teamId, wanted));
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const queryClient = useQueryClient();
  const zones = useId();
  const remove = useMutation({
    mutationFn: async (userId: string) =>
      unwrap(api.DELETE('/v1/teams/{teamId}/members/{userId}', { params: { path: { teamId, userId } } })),
    onSuccess: async () => {
      setRemoving(null);
      await queryClient.invalidateQueries({ queryKey: teamKeys.allMembers(teamId) });
    },
  });
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${zones}-search`} className="text-sm font-medium">
            Search members
          </label>
          <input
            id={`${zones}-search`}
            type="search"
            value={search}
            placeholder="Name or email"
            className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <Button variant="primary" onClick={() => setAdding(true)}>
          <UserPlus size={14} aria-hidden />
          Add member
        </Button>
      </div>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Availability, capacity and time zone are the member's own and apply in every team they belong to.
      </p>
      <ErrorNotice error={members.error ?? remove.error} />
      {!members.isPending && members.items.length === 0 ? (
        <p className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {wanted ? `No member matches "${wanted}".` : 'No members yet: use "Add member" to pick people from your organization.'}
        </p>
      ) : (
        <ul
          aria-label="Members"
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {members.items.map((member) => (
            <MemberRow key={member.id} member={member} teamId={teamId} zoneListId={zones} onRemove={() => setRemoving(member)} />
          ))}
        </ul>
      )}
      <TimeZoneOptions id={zones} />
      <LoadMore hasMore={members.hasMore} loading={members.loadingMore} onLoadMore={members.loadMore} />
      <AddMemberDialog open={adding} onOpenChange={setAdding} teamId={teamId} teamName={teamName} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={`Remove ${removing?.name ?? 'member'} from ${teamName}?`}
        description="They stop getting this team's tickets; tickets already assigned to them stay theirs. You can add them again later."
        confirmLabel="Remove member"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.id)}
      />
    </div>
  );
}
