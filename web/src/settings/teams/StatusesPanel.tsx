import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { StatusRow } from './StatusRow';
import { statusesQuery } from './team-queries';

/**
 * The team's ticket statuses: each one's display name, and whether a ticket in it stops its SLA
 * clocks (On hold does by default), each changed at once with one PATCH.
 */
export function StatusesPanel({ teamId }: { teamId: string }) {
  const statuses = useQuery(statusesQuery(teamId));
  return (
    <div className="flex max-w-3xl flex-col gap-3">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        While a ticket is in a status that pauses the SLA, its reply and resolution clocks stop; the time already used is kept,
        and they run again when the ticket leaves the status.
      </p>
      <ErrorNotice error={statuses.error} />
      {statuses.isPending ? <p className="text-sm text-zinc-500">Loading statuses…</p> : null}
      {statuses.data ? (
        <ul aria-label="Statuses" className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800">
          {statuses.data.map((status) => (
            <StatusRow key={status.id} teamId={teamId} status={status} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
