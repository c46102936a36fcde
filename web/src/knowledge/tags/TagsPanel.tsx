import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { DeleteAction } from '../../ui/DeleteAction';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ARTICLES_KEY } from '../articles/articles-api';
import { TagDialog } from './TagDialog';
import { deleteTag, TAGS_KEY, type Tag, tagsQuery } from './tags-api';

/** The organization's tags: renamed, merged into another (its articles follow), or deleted. */
export function TagsPanel() {
  const queryClient = useQueryClient();
  const tags = useQuery(tagsQuery);
  const [editing, setEditing] = useState<{ tag: Tag; mode: 'rename' | 'merge' } | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: TAGS_KEY }),
      queryClient.invalidateQueries({ queryKey: ARTICLES_KEY }),
    ]);
  return (
    <section aria-labelledby="tags-heading" className="flex flex-col gap-2">
      <h2 id="tags-heading" className="text-base font-semibold">
        Tags
      </h2>
      <ErrorNotice error={tags.error} />
      {tags.data?.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No tags yet: add them to an article in its editor.</p>
      ) : null}
      {tags.data && tags.data.length > 0 ? (
        <ul
          aria-label="Tags"
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {tags.data.map((tag) => (
            <li key={tag._id} className="flex flex-wrap items-center gap-2 px-3 py-1.5 text-sm">
              <span className="min-w-0 flex-1 truncate">{tag.name}</span>
              <Button variant="ghost" aria-label={`Rename tag ${tag.name}`} onClick={() => setEditing({ tag, mode: 'rename' })}>
                Rename
              </Button>
              <Button
                variant="ghost"
                aria-label={`Merge tag ${tag.name}`}
                disabled={tags.data.length < 2}
                onClick={() => setEditing({ tag, mode: 'merge' })}
              >
                Merge
              </Button>
              <DeleteAction
                label="Delete"
                accessibleName={`Delete tag ${tag.name}`}
                variant="ghost"
                title={`Delete tag ${tag.name}?`}
                description="It is taken off every article that has it."
                confirmLabel="Delete tag"
                remove={() => deleteTag(tag._id)}
                onDeleted={refresh}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {editing ? (
        <TagDialog
          tag={editing.tag}
          mode={editing.mode}
          tags={tags.data ?? []}
          onOpenChange={(open) => (open ? undefined : setEditing(null))}
          onDone={refresh}
        />
      ) : null}
    </section>
  );
}
