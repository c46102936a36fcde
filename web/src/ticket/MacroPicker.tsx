import * as Popover from '@radix-ui/react-popover';
import { useQuery } from '@tanstack/react-query';
import { Zap } from 'lucide-react';
import { useState } from 'react';
import type { Macro } from '../api/types';
import { macrosQuery } from './ticket-queries';

/**
 * The macros of the ticket's team and the organization. "Insert" puts the reply, placeholders
 * filled, into the draft to edit; "Apply" sends it now through the API and applies the macro's
 * actions (status, priority, assignee, tags) in the same transaction.
 */
export function MacroPicker({
  teamId,
  onInsert,
  onApply,
  applying,
}: {
  teamId: string;
  onInsert: (macro: Macro) => void;
  onApply: (macro: Macro) => void;
  applying: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const macros = useQuery({ ...macrosQuery, enabled: open });
  const shown = (macros.data ?? []).filter(
    (macro) =>
      (macro.teamId === null || macro.teamId === teamId) && macro.name.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  const actionCount = (macro: Macro) => Object.keys(macro.actions).length;
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
        <Zap size={14} aria-hidden /> Macros
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          side="top"
          sideOffset={6}
          className="z-50 w-80 max-w-[calc(100vw-1rem)] rounded-md border border-zinc-200 bg-white p-2 text-sm shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          <input
            aria-label="Find a macro"
            placeholder="Find a macro"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            className="mb-2 w-full rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-950"
          />
          {macros.isPending ? <p className="px-1 text-zinc-500">Loading macros…</p> : null}
          {macros.error ? <p role="alert">{macros.error.message}</p> : null}
          {macros.data && shown.length === 0 ? <p className="px-1 text-zinc-500 dark:text-zinc-400">No macros.</p> : null}
          <ul className="flex max-h-72 flex-col gap-1 overflow-y-auto">
            {shown.map((macro) => (
              <li key={macro.id} className="rounded px-2 py-1.5 hover:bg-zinc-50 dark:hover:bg-zinc-800">
                <div className="flex items-center gap-2">
                  <span className="min-w-0 flex-1 truncate font-medium">{macro.name}</span>
                  <button
                    type="button"
                    aria-label={`Insert macro ${macro.name}`}
                    className="rounded border border-zinc-300 px-1.5 py-0.5 text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-700"
                    onClick={() => {
                      setOpen(false);
                      onInsert(macro);
                    }}
                  >
                    Insert
                  </button>
                  <button
                    type="button"
                    aria-label={`Apply macro ${macro.name}`}
                    title="Send its reply now and apply its actions"
                    disabled={applying}
                    className="rounded bg-blue-600 px-1.5 py-0.5 text-xs text-white hover:bg-blue-700 disabled:opacity-60"
                    onClick={() => {
                      setOpen(false);
                      onApply(macro);
                    }}
                  >
                    Apply
                  </button>
                </div>
                <p className="mt-0.5 line-clamp-2 text-xs text-zinc-500 dark:text-zinc-400">
                  {macro.commentVisibility === 'private' ? 'Internal note' : 'Reply'}
                  {actionCount(macro) > 0 ? ` · ${actionCount(macro)} action${actionCount(macro) > 1 ? 's' : ''}` : ''} ·{' '}
                  {macro.content}
                </p>
              </li>
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
