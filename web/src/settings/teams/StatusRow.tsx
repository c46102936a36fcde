import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { type TicketStatus, type TicketStatusUpdate, updateStatus } from './team-queries';

const INPUT =
  'min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900';

/** One status: its display name, renamed with Save, and its "Pauses SLA" switch, saved when flipped. */
export function StatusRow({ teamId, status }: { teamId: string; status: TicketStatus }) {
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(status.displayName);
  // The switch shows the change it is sending (set as it is flipped) until the list is read again.
  const [switching, setSwitching] = useState<boolean | null>(null);
  const errorId = useId();
  const save = useMutation({
    mutationFn: (change: TicketStatusUpdate) => updateStatus(status.id, change),
    onSuccess: async (saved) => {
      setDisplayName(saved.displayName);
      // Every list of the team's options (the inbox's filters, routing's choices) reads it anew.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['teams', teamId] }),
        queryClient.invalidateQueries({ queryKey: ['ticket-statuses', teamId] }),
      ]);
    },
  });
  const renamed = displayName.trim() !== '' && displayName !== status.displayName;
  const pausesSla = switching ?? status.pausesSla;
  return (
    <li aria-label={status.displayName} className="flex flex-col gap-1 py-2">
      <div className="flex flex-wrap items-center gap-3">
        <form
          className="flex items-center gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ displayName });
          }}
        >
          <input
            aria-label={`Display name of ${status.displayName}`}
            aria-invalid={save.isError}
            aria-describedby={save.isError ? errorId : undefined}
            className={INPUT}
            value={displayName}
            onChange={(event) => setDisplayName(event.target.value)}
          />
          <Button type="submit" disabled={!renamed || save.isPending}>
            Rename
          </Button>
        </form>
        {status.isClosed ? <Badge>Closed</Badge> : null}
        <label className="ml-auto flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            role="switch"
            className="h-4 w-4"
            aria-checked={pausesSla}
            checked={pausesSla}
            disabled={save.isPending}
            onChange={(event) => {
              setSwitching(event.target.checked);
              save.mutate({ pausesSla: event.target.checked }, { onSettled: () => setSwitching(null) });
            }}
          />
          Pauses SLA
        </label>
      </div>
      <div id={errorId}>
        <ErrorNotice error={save.error} />
      </div>
    </li>
  );
}
