import { useId, useMemo, useState } from 'react';
import type { OrganizationUser } from '../api/types';
import { Dialog } from '../ui/Dialog';

interface Choice {
  id: string | null;
  label: string;
  detail?: string;
}

/**
 * The user picker of `a` and the Assign button: type to narrow, arrows to move, Enter to assign.
 * "Unassigned" takes the tickets off anyone's plate.
 */
export function AssignDialog({
  open,
  onOpenChange,
  users,
  count,
  onAssign,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  users: readonly OrganizationUser[];
  count: number;
  onAssign: (userId: string | null) => void;
}) {
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const choices = useMemo<Choice[]>(() => {
    const wanted = filter.trim().toLowerCase();
    const people = users
      .filter((user) => !wanted || user.name.toLowerCase().includes(wanted) || user.email.toLowerCase().includes(wanted))
      .map((user) => ({ id: user.id, label: user.name, detail: user.email }));
    return !wanted || 'unassigned'.includes(wanted) ? [{ id: null, label: 'Unassigned' }, ...people] : people;
  }, [users, filter]);
  const current = Math.min(active, choices.length - 1);
  const choose = (choice: Choice | undefined) => {
    if (choice) {
      onAssign(choice.id);
      onOpenChange(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setFilter('');
        setActive(0);
        onOpenChange(next);
      }}
      title={count === 1 ? 'Assign the ticket' : `Assign ${count} tickets`}
    >
      <div className="flex min-h-0 flex-col gap-2 p-4">
        <input
          aria-label="Find a person"
          placeholder="Find a person"
          className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          value={filter}
          aria-controls={listId}
          aria-activedescendant={choices.length > 0 ? `${listId}-${current}` : undefined}
          onChange={(event) => {
            setFilter(event.target.value);
            setActive(0);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              const delta = event.key === 'ArrowDown' ? 1 : -1;
              setActive(Math.max(0, Math.min(choices.length - 1, current + delta)));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              choose(choices[current]);
            }
          }}
        />
        <div role="listbox" id={listId} aria-label="People" className="min-h-0 overflow-y-auto">
          {choices.map((choice, index) => (
            <div
              key={choice.id ?? 'none'}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === current}
              onMouseEnter={() => setActive(index)}
              onClick={() => choose(choice)}
              onKeyDown={(event) => event.key === 'Enter' && choose(choice)}
              className={`flex cursor-pointer items-baseline justify-between gap-3 rounded px-2 py-1.5 text-sm ${
                index === current ? 'bg-zinc-100 dark:bg-zinc-800' : ''
              }`}
            >
              <span>{choice.label}</span>
              {choice.detail ? <span className="truncate text-xs text-zinc-500 dark:text-zinc-400">{choice.detail}</span> : null}
            </div>
          ))}
          {choices.length === 0 ? <p className="px-2 py-1.5 text-sm text-zinc-500">Nobody matches</p> : null}
        </div>
      </div>
    </Dialog>
  );
}
