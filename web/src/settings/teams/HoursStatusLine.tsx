import { useQuery } from '@tanstack/react-query';
import { Clock } from 'lucide-react';
import { describeHoursStatus } from './hours-status';
import { hoursStatusQuery } from './team-queries';

/** Open or closed right now by the saved hours, refreshed every minute and after each save. */
export function HoursStatusLine({ teamId }: { teamId: string }) {
  const status = useQuery(hoursStatusQuery(teamId));
  if (!status.data) {
    return null;
  }
  const open = status.data.isOpen;
  return (
    <p
      role="status"
      aria-label="Business hours now"
      className={`inline-flex items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium ${
        open
          ? 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'
          : 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200'
      }`}
    >
      <Clock size={14} aria-hidden />
      {describeHoursStatus(status.data)}
    </p>
  );
}
