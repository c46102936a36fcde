import type { Ticket } from '../api/types';
import { useMinuteClock } from '../ui/use-minute-clock';
import { slaDueOf } from './sla-due';

/** The Due column: the earliest running SLA target's countdown, a breach in the danger style, or Paused. */
export function SlaDueBadge({ ticket }: { ticket: Ticket }) {
  const due = slaDueOf(ticket.sla, useMinuteClock());
  if (!due) {
    return null;
  }
  if (due.kind === 'paused') {
    return <span className="text-zinc-500 dark:text-zinc-400">{due.text}</span>;
  }
  const title = `${due.kind === 'breached' ? 'Was due' : 'Due'} ${new Date(due.at).toLocaleString()}`;
  return (
    <time
      dateTime={due.at}
      title={title}
      className={
        due.kind === 'breached'
          ? 'rounded bg-red-50 px-1.5 py-0.5 font-medium text-red-700 dark:bg-red-950 dark:text-red-300'
          : 'text-zinc-600 dark:text-zinc-300'
      }
    >
      {due.text}
    </time>
  );
}
