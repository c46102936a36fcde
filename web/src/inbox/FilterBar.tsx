import { SlidersHorizontal } from 'lucide-react';
import { useState } from 'react';
import { TICKET_SORTS } from '../../../src/shared/ticket-sorts';
import type { InboxOptions } from '../api/ticket-options';
import { Button } from '../ui/Button';
import { Select } from '../ui/Select';
import { TICKET_SORT_LABELS } from '../ui/ticket-sort-labels';
import { filterCount, type InboxSearch, withFilter, withoutFilters } from './inbox-search';

// The status select also offers "any open" and "any closed" (isClosed); its values say which.
const ANY_OPEN = ':open';
const ANY_CLOSED = ':closed';

function statusValue(search: InboxSearch): string {
  if (search.status !== undefined) {
    return search.status;
  }
  return search.closed === undefined ? '' : search.closed ? ANY_CLOSED : ANY_OPEN;
}

function withStatus(search: InboxSearch, value: string): InboxSearch {
  const cleared = withFilter(withFilter(search, 'status', undefined), 'closed', undefined);
  if (value === ANY_OPEN || value === ANY_CLOSED) {
    return withFilter(cleared, 'closed', value === ANY_CLOSED);
  }
  return withFilter(cleared, 'status', value || undefined);
}

/** Keeps a value the URL holds in the choices even when the options do not (yet) list it. */
function withCurrent(options: { value: string; label: string }[], current: string | undefined) {
  return current && !options.some((option) => option.value === current)
    ? [...options, { value: current, label: current }]
    : options;
}

/**
 * The filters and sort of the ticket API, narrowing the open view; every change goes to the URL,
 * so a filtered list can be bookmarked, shared and reached with Back. Folded behind a button on phones.
 */
export function FilterBar({
  search,
  options,
  onChange,
}: {
  search: InboxSearch;
  options: InboxOptions;
  onChange: (search: InboxSearch) => void;
}) {
  const [shownOnPhone, setShownOnPhone] = useState(false);
  const count = filterCount(search);
  const set = <K extends keyof InboxSearch>(key: K, value: InboxSearch[K] | undefined) =>
    onChange(withFilter(search, key as Exclude<K, 'view'>, value as never));
  return (
    <div className="border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
      <Button
        variant="ghost"
        className="md:hidden"
        aria-expanded={shownOnPhone}
        onClick={() => setShownOnPhone((shown) => !shown)}
      >
        <SlidersHorizontal size={14} aria-hidden /> Filters{count > 0 ? ` (${count})` : ''}
      </Button>
      <fieldset className={`${shownOnPhone ? 'flex' : 'hidden'} flex-wrap items-center gap-x-3 gap-y-2 pt-2 md:flex md:pt-0`}>
        <legend className="sr-only">Filters</legend>
        <Select
          label="Status"
          value={statusValue(search)}
          onChange={(event) => onChange(withStatus(search, event.target.value))}
          options={withCurrent(
            [
              { value: '', label: 'Any status' },
              { value: ANY_OPEN, label: 'Any open status' },
              { value: ANY_CLOSED, label: 'Any closed status' },
              ...options.statuses.map((status) => ({ value: status.name, label: status.name })),
            ],
            search.status,
          )}
        />
        <Select
          label="Priority"
          value={search.priority ?? ''}
          onChange={(event) => set('priority', event.target.value || undefined)}
          options={withCurrent(
            [
              { value: '', label: 'Any priority' },
              ...options.priorities.map((priority) => ({ value: priority.name, label: priority.name })),
            ],
            search.priority,
          )}
        />
        <Select
          label="Assignee"
          value={search.assignee ?? ''}
          onChange={(event) => set('assignee', event.target.value || undefined)}
          options={withCurrent(
            [
              { value: '', label: 'Anyone' },
              { value: 'me', label: 'Me' },
              { value: 'none', label: 'Unassigned' },
              ...options.users.map((user) => ({ value: user.id, label: user.name })),
            ],
            search.assignee,
          )}
        />
        <Select
          label="Team"
          value={search.team?.[0] ?? ''}
          onChange={(event) => set('team', event.target.value ? [event.target.value] : undefined)}
          options={withCurrent(
            [{ value: '', label: 'Any team' }, ...options.teams.map((team) => ({ value: team.id, label: team.name }))],
            search.team?.[0],
          )}
        />
        <Select
          label="Tag"
          value={search.tag?.[0] ?? ''}
          onChange={(event) => set('tag', event.target.value ? [event.target.value] : undefined)}
          options={withCurrent(
            [{ value: '', label: 'Any tag' }, ...options.tags.map((tag) => ({ value: tag, label: tag }))],
            search.tag?.[0],
          )}
        />
        <Select
          label="Sort"
          value={search.sort ?? ''}
          onChange={(event) =>
            set(
              'sort',
              TICKET_SORTS.find((sort) => sort === event.target.value),
            )
          }
          options={[
            { value: '', label: "The view's order" },
            ...TICKET_SORTS.map((sort) => ({ value: sort, label: TICKET_SORT_LABELS[sort] })),
          ]}
        />
        {count > 0 || search.sort ? (
          <Button variant="ghost" onClick={() => onChange(withoutFilters(search))}>
            Clear filters
          </Button>
        ) : null}
      </fieldset>
    </div>
  );
}
