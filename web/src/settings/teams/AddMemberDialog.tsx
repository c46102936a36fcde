import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { fetchUsersPage, teamKeys } from './team-queries';

/**
 * The organization's people, a page at a time, narrowed by what is typed among those loaded;
 * "Add" puts one in the team. Someone already in it is answered by the API, in its words.
 */
export function AddMemberDialog({
  open,
  onOpenChange,
  teamId,
  teamName,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  teamId: string;
  teamName: string;
}) {
  const users = useCursorPages(teamKeys.users, fetchUsersPage);
  const [filter, setFilter] = useState('');
  const [added, setAdded] = useState<string[]>([]);
  const id = useId();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: async (userId: string) =>
      unwrap(api.POST('/v1/teams/{teamId}/members', { params: { path: { teamId } }, body: { userId } })),
    onSuccess: async (_, userId) => {
      setAdded((before) => [...before, userId]);
      await queryClient.invalidateQueries({ queryKey: teamKeys.allMembers(teamId) });
    },
  });
  const wanted = filter.trim().toLowerCase();
  const shown = users.items.filter(
    (user) =>
      !user.disabled && (!wanted || user.name.toLowerCase().includes(wanted) || user.email.toLowerCase().includes(wanted)),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Add members to ${teamName}`}>
      <div className="flex min-h-0 flex-col gap-3 p-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-filter`} className="text-sm font-medium">
            Find a person
          </label>
          <input
            id={`${id}-filter`}
            type="search"
            value={filter}
            placeholder="Name or email"
            className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            onChange={(event) => setFilter(event.target.value)}
          />
        </div>
        <ErrorNotice error={users.error ?? add.error} />
        <ul
          aria-label="People in your organization"
          className="min-h-0 flex-1 divide-y divide-zinc-200 overflow-y-auto dark:divide-zinc-800"
        >
          {shown.map((user) => (
            <li key={user.id} className="flex items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium">{user.name}</p>
                <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{user.email}</p>
              </div>
              {added.includes(user.id) ? (
                <span className="text-xs text-emerald-700 dark:text-emerald-400">Added</span>
              ) : (
                <Button aria-label={`Add ${user.name}`} disabled={add.isPending} onClick={() => add.mutate(user.id)}>
                  Add
                </Button>
              )}
            </li>
          ))}
        </ul>
        {!users.isPending && shown.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {users.hasMore
              ? 'Nobody matches among those loaded: load more to look further.'
              : 'Nobody matches. Invite people on the Users page first.'}
          </p>
        ) : null}
        <LoadMore hasMore={users.hasMore} loading={users.loadingMore} onLoadMore={users.loadMore} />
      </div>
    </Dialog>
  );
}
