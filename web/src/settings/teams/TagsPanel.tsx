import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { TagDialog } from './TagDialog';
import { type TeamTag, tagsQuery, teamKeys } from './team-queries';

type Editing = { tag: TeamTag | null } | null;

/** The team's tags (the API answers them all at once): ticket tags sort tickets, skills tags describe members. */
export function TagsPanel({ teamId }: { teamId: string }) {
  const tags = useQuery(tagsQuery(teamId));
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<TeamTag | null>(null);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async (tagUuid: string) =>
      unwrap(api.DELETE('/v1/teams/{teamUuid}/tags/{tagUuid}', { params: { path: { teamUuid: teamId, tagUuid } } })),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: teamKeys.tags(teamId) });
    },
  });
  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">
        <Button variant="primary" onClick={() => setEditing({ tag: null })}>
          <Plus size={14} aria-hidden />
          New tag
        </Button>
      </div>
      <ErrorNotice error={tags.error ?? remove.error} />
      {tags.data && tags.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No tags yet: use "New tag" to make the labels this team sorts its tickets by.
        </p>
      ) : null}
      {tags.data && tags.data.length > 0 ? (
        <ul
          aria-label="Tags"
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {tags.data.map((tag) => (
            <li key={tag.id} className="flex flex-wrap items-center gap-2 px-3 py-2">
              <Badge color={tag.color}>{tag.name}</Badge>
              <span className="text-xs text-zinc-500 dark:text-zinc-400">{tag.type === 'skills' ? 'Skills' : 'Ticket'}</span>
              <span className="min-w-0 flex-1 truncate text-sm text-zinc-600 dark:text-zinc-400">{tag.description}</span>
              <Button variant="ghost" aria-label={`Edit tag ${tag.name}`} onClick={() => setEditing({ tag })}>
                Edit
              </Button>
              <Button variant="ghost" aria-label={`Delete tag ${tag.name}`} onClick={() => setDeleting(tag)}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <TagDialog teamId={teamId} open={editing !== null} tag={editing?.tag ?? null} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={`Delete tag ${deleting?.name ?? ''}?`}
        description="The tag is taken off every ticket that carries it, as their timelines record. This cannot be undone."
        confirmLabel="Delete tag"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </div>
  );
}
