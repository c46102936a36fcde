import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { TicketSearchHit } from '../api/types';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { highlightParts } from './search-highlight';

/** Wait for a pause in typing before asking, so a word is one request, not one per letter. */
const DEBOUNCE_MS = 150;
const RESULTS = 20;

function useDebounced(value: string): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return debounced;
}

/**
 * `/` or Ctrl-K: full-text search of the tickets (`GET /v1/tickets/search`), best match first with
 * the matched words marked; arrows move through the results and Enter opens one.
 */
export function CommandBar({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const q = useDebounced(text.trim());
  const navigate = useNavigate();
  const listId = useId();
  const results = useQuery({
    queryKey: ['tickets', 'search', q],
    enabled: open && q.length > 0,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      (await unwrap(api.GET('/v1/tickets/search', { params: { query: { q, limit: RESULTS } }, signal }))).data,
  });
  const hits = q.length > 0 ? (results.data ?? []) : [];
  const current = Math.min(active, hits.length - 1);

  const close = (next: boolean) => {
    if (!next) {
      setText('');
      setActive(0);
    }
    onOpenChange(next);
  };
  const openTicket = (hit: TicketSearchHit | undefined) => {
    if (hit) {
      close(false);
      void navigate({ to: '/tickets/$ticketId', params: { ticketId: hit.id } });
    }
  };

  return (
    <Dialog open={open} onOpenChange={close} title="Search tickets" hideTitle className="top-[8vh]">
      <div className="flex min-h-0 flex-col">
        <input
          aria-label="Search tickets"
          placeholder="Search tickets: words, “a phrase”, refun*, -word"
          className="w-full rounded-t-lg border-b border-zinc-200 bg-transparent px-4 py-3 text-base outline-none dark:border-zinc-800"
          value={text}
          aria-controls={listId}
          aria-activedescendant={hits.length > 0 ? `${listId}-${current}` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              const delta = event.key === 'ArrowDown' ? 1 : -1;
              setActive(Math.max(0, Math.min(hits.length - 1, current + delta)));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              openTicket(hits[current]);
            }
          }}
        />
        <ErrorNotice error={results.error} className="m-3" />
        <div role="listbox" id={listId} aria-label="Search results" className="min-h-0 overflow-y-auto p-1">
          {hits.map((hit, index) => (
            <SearchResult
              key={hit.id}
              id={`${listId}-${index}`}
              hit={hit}
              active={index === current}
              onHover={() => setActive(index)}
              onOpen={() => openTicket(hit)}
            />
          ))}
        </div>
        {q.length > 0 && results.isSuccess && hits.length === 0 ? (
          <p className="px-4 py-3 text-sm text-zinc-500 dark:text-zinc-400">No ticket matches “{q}”.</p>
        ) : null}
        {q.length === 0 ? (
          <p className="px-4 py-3 text-xs text-zinc-500 dark:text-zinc-400">
            Searches titles, descriptions and comments. ↑↓ to move, Enter to open, Esc to close.
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}

function SearchResult({
  id,
  hit,
  active,
  onHover,
  onOpen,
}: {
  id: string;
  hit: TicketSearchHit;
  active: boolean;
  onHover: () => void;
  onOpen: () => void;
}) {
  const passage = hit.highlights.find((highlight) => highlight.field !== 'title');
  return (
    <div
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={active}
      onMouseMove={onHover}
      onClick={onOpen}
      onKeyDown={(event) => event.key === 'Enter' && onOpen()}
      className={`cursor-pointer rounded px-3 py-2 text-sm ${active ? 'bg-zinc-100 dark:bg-zinc-800' : ''}`}
    >
      <div className="flex items-baseline gap-2">
        <span className="shrink-0 whitespace-nowrap font-mono text-xs text-zinc-500 dark:text-zinc-400">
          {hit.ticketIdentifier}
        </span>
        <span className="truncate font-medium">{hit.title}</span>
        <span className="ml-auto shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{hit.status}</span>
      </div>
      {passage ? (
        <p className="mt-0.5 line-clamp-2 text-xs text-zinc-600 dark:text-zinc-300">
          {highlightParts(passage.text).map((part, index) =>
            part.marked ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one passage never reorder.
              <mark key={index} className="rounded-sm bg-yellow-200 px-0.5 text-inherit dark:bg-yellow-700/60">
                {part.text}
              </mark>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one passage never reorder.
              <span key={index}>{part.text}</span>
            ),
          )}
        </p>
      ) : null}
    </div>
  );
}
