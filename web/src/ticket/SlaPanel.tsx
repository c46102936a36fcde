import { TriangleAlert } from 'lucide-react';
import type { Ticket } from '../api/types';
import { SLA_METRIC_LABELS } from '../ui/sla-countdown';
import { useMinuteClock } from '../ui/use-minute-clock';
import { SlaHistory } from './SlaHistory';
import { type SlaTarget, slaTargetState } from './sla-target-state';

const formatted = (at: string) => new Date(at).toLocaleString();

function TargetLine({ target, now }: { target: SlaTarget; now: number }) {
  const state = slaTargetState(target, now);
  return (
    <li className="flex items-baseline justify-between gap-2">
      <span className="font-medium">{SLA_METRIC_LABELS[target.metric]}</span>
      {state.kind === 'met' ? (
        <span className="text-emerald-700 dark:text-emerald-400">
          Met <time dateTime={state.at}>{formatted(state.at)}</time>
        </span>
      ) : null}
      {state.kind === 'paused' ? <span className="text-zinc-500 dark:text-zinc-400">Paused</span> : null}
      {state.kind === 'waiting' ? <span className="text-zinc-500 dark:text-zinc-400">Not started</span> : null}
      {state.kind === 'due' ? (
        <time dateTime={state.at} title={`Due ${formatted(state.at)}`} className="text-zinc-700 dark:text-zinc-300">
          {state.text}
        </time>
      ) : null}
      {state.kind === 'breached' ? (
        <time
          dateTime={state.at}
          title={`Was due ${formatted(state.at)}`}
          className="inline-flex items-center gap-1 rounded bg-red-50 px-1.5 py-0.5 font-medium text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          <TriangleAlert size={12} aria-hidden />
          {state.text}
        </time>
      ) : null}
    </li>
  );
}

/**
 * The ticket's SLA targets in the side panel, one line each, counting down by the shared minute
 * clock and refreshed with the ticket (the page follows the live stream); nothing without a policy.
 */
export function SlaPanel({ ticket, ticketKey }: { ticket: Ticket; ticketKey: string }) {
  const now = useMinuteClock();
  if (!ticket.sla) {
    return null;
  }
  return (
    <section aria-labelledby="ticket-sla-heading" className="border-t border-zinc-200 p-4 text-sm dark:border-zinc-800">
      <h2 id="ticket-sla-heading" className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
        SLA
      </h2>
      <ul className="mt-2 flex flex-col gap-1.5">
        {ticket.sla.targets.map((target) => (
          <TargetLine key={target.metric} target={target} now={now} />
        ))}
      </ul>
      <SlaHistory ticketKey={ticketKey} />
    </section>
  );
}
