import { CheckCircle2, UserPlus } from 'lucide-react';
import type { InboxOptions } from '../api/ticket-options';
import type { BulkTicketChange } from '../api/types';
import { Button } from '../ui/Button';
import { Menu } from '../ui/Menu';

/** What to do with the selected tickets: close, set status or priority, assign, add a tag. */
export function BulkBar({
  count,
  options,
  busy,
  onChange,
  onAssign,
  onClear,
  onSelectAll,
}: {
  count: number;
  options: InboxOptions;
  busy: boolean;
  onChange: (change: BulkTicketChange) => void;
  onAssign: () => void;
  onClear: () => void;
  onSelectAll: () => void;
}) {
  return (
    <div
      role="toolbar"
      aria-label="Bulk actions"
      aria-busy={busy}
      className="flex flex-wrap items-center gap-2 border-b border-blue-200 bg-blue-50 px-3 py-1.5 text-sm dark:border-blue-900 dark:bg-blue-950/50"
    >
      <span className="font-medium" aria-live="polite">
        {count} selected
      </span>
      <Button disabled={busy} onClick={() => onChange({ statusName: options.closedStatus })}>
        <CheckCircle2 size={14} aria-hidden /> Close
      </Button>
      <Menu
        label="Set status"
        trigger="Status"
        items={options.statuses.map((status) => ({ label: status.name, onSelect: () => onChange({ statusName: status.name }) }))}
      />
      <Menu
        label="Set priority"
        trigger="Priority"
        items={options.priorities.map((priority) => ({
          label: priority.name,
          onSelect: () => onChange({ priorityName: priority.name }),
        }))}
      />
      <Button disabled={busy} onClick={onAssign}>
        <UserPlus size={14} aria-hidden /> Assign
      </Button>
      <Menu
        label="Add tag"
        trigger="Tag"
        empty="No ticket tags yet"
        items={options.tags.map((tag) => ({ label: tag, onSelect: () => onChange({ addTagIds: [tag] }) }))}
      />
      <div className="ml-auto flex gap-1">
        <Button variant="ghost" onClick={onSelectAll}>
          Select all loaded
        </Button>
        <Button variant="ghost" onClick={onClear}>
          Clear selection
        </Button>
      </div>
    </div>
  );
}
