import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { createTag, TAGS_KEY, tagsQuery } from './tags-api';

/** An article's tags: each removable, one added from the organization's tags, or a new one made on the way. */
export function ArticleTagsField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (tags: string[]) => void;
  error?: string;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const tags = useQuery(tagsQuery);
  const [name, setName] = useState('');
  const byId = new Map((tags.data ?? []).map((tag) => [tag._id, tag]));
  const add = useMutation({
    mutationFn: async (typed: string) => {
      const existing = tags.data?.find((tag) => tag.lowerName === typed.trim().toLowerCase());
      return existing ?? (await createTag(typed.trim()));
    },
    onSuccess: (tag) => {
      void queryClient.invalidateQueries({ queryKey: TAGS_KEY });
      if (!value.includes(tag._id)) {
        onChange([...value, tag._id]);
      }
      setName('');
    },
  });
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">Tags</legend>
      <ul aria-label="Article tags" className="flex flex-wrap gap-1.5">
        {value.map((tagId) => {
          const tagName = byId.get(tagId)?.name ?? 'Tag';
          return (
            <li
              key={tagId}
              className="inline-flex items-center gap-1 rounded-full border border-zinc-300 py-0.5 pr-1 pl-2 text-xs dark:border-zinc-700"
            >
              {tagName}
              <button
                type="button"
                aria-label={`Remove tag ${tagName}`}
                className="rounded-full p-0.5 hover:bg-zinc-200 dark:hover:bg-zinc-700"
                onClick={() => onChange(value.filter((other) => other !== tagId))}
              >
                <X size={12} aria-hidden />
              </button>
            </li>
          );
        })}
      </ul>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() !== '') {
            add.mutate(name);
          }
        }}
      >
        <label htmlFor={`${id}-add`} className="sr-only">
          Add a tag
        </label>
        <input
          id={`${id}-add`}
          list={`${id}-names`}
          value={name}
          placeholder="Add a tag"
          onChange={(event) => setName(event.target.value)}
          className="w-44 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <datalist id={`${id}-names`}>
          {(tags.data ?? []).map((tag) => (
            <option key={tag._id} value={tag.name} />
          ))}
        </datalist>
        <Button type="submit" disabled={add.isPending}>
          Add tag
        </Button>
      </form>
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <ErrorNotice error={add.error} />
    </fieldset>
  );
}
