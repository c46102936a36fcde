import * as Popover from '@radix-ui/react-popover';
import { useQuery } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import type { Ticket } from '../api/types';
import { Badge } from '../ui/Badge';
import { addTicketTags, removeTicketTags, type TicketChange } from './ticket-mutations';
import { teamTagsQuery } from './ticket-queries';

/** The ticket's tags, removable one by one, and a picker of the team's ticket tags to add. */
export function TagEditor({ ticket, change }: { ticket: Ticket; change: (change: TicketChange) => void }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const tags = useQuery({ ...teamTagsQuery(ticket.teamId), enabled: open });
  const has = new Set(ticket.tags.map((tag) => tag.id));
  const candidates = (tags.data ?? []).filter(
    (tag) => !has.has(tag.id) && tag.name.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  return (
    <ul aria-label="Tags" className="flex flex-wrap items-center gap-1.5">
      {ticket.tags.map((tag) => (
        <li key={tag.id} className="flex items-center">
          <Badge color={tag.color}>
            {tag.name}
            <button
              type="button"
              aria-label={`Remove tag ${tag.name}`}
              className="-mr-1 ml-0.5 rounded-full p-0.5 hover:bg-zinc-200 dark:hover:bg-zinc-700"
              onClick={() =>
                change({
                  optimistic: { tags: ticket.tags.filter((other) => other.id !== tag.id) },
                  request: removeTicketTags(ticket.id, [tag.id]),
                })
              }
            >
              <X size={12} aria-hidden />
            </button>
          </Badge>
        </li>
      ))}
      <li>
        <Popover.Root open={open} onOpenChange={setOpen}>
          <Popover.Trigger className="inline-flex items-center gap-1 rounded-full border border-dashed border-zinc-300 px-2 py-0.5 text-xs text-zinc-600 hover:bg-zinc-50 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800">
            <Plus size={12} aria-hidden /> Add tag
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content
              align="start"
              sideOffset={6}
              className="z-50 w-64 rounded-md border border-zinc-200 bg-white p-2 text-sm shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
            >
              <input
                aria-label="Find a tag"
                placeholder="Find a tag"
                value={filter}
                onChange={(event) => setFilter(event.target.value)}
                className="mb-2 w-full rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-950"
              />
              {tags.isPending ? <p className="px-1 text-zinc-500">Loading tags…</p> : null}
              {tags.error ? <p role="alert">{tags.error.message}</p> : null}
              {tags.data && candidates.length === 0 ? (
                <p className="px-1 text-zinc-500 dark:text-zinc-400">No other tags in {ticket.teamName}.</p>
              ) : null}
              <ul className="max-h-60 overflow-y-auto">
                {candidates.map((tag) => (
                  <li key={tag.id}>
                    <button
                      type="button"
                      className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800"
                      onClick={() => {
                        setOpen(false);
                        setFilter('');
                        change({
                          optimistic: { tags: [...ticket.tags, { id: tag.id, name: tag.name, color: tag.color }] },
                          request: addTicketTags(ticket.id, [tag.id]),
                        });
                      }}
                    >
                      <Badge color={tag.color}>{tag.name}</Badge>
                    </button>
                  </li>
                ))}
              </ul>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      </li>
    </ul>
  );
}
