import { isChatTicket } from '../api/ticket-source';
import { ChatMark } from '../ui/ChatMark';
import { SlaDueBadge } from './SlaDueBadge';
import type { RowProps } from './TicketRow';
import { SelectBox, StatusBadge, TicketLink, Updated } from './TicketRow';
import { requestorName } from './ticket-format';

export const CARD_HEIGHT = 84;

/** One ticket on a phone: the same facts as a row, stacked. */
export function TicketCard({ ticket, offset, focused, selected, onToggle, onFocus }: RowProps) {
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: clicking a card only moves the j/k focus, which the keyboard moves itself.
    <li
      aria-current={focused ? 'true' : undefined}
      data-ticket-id={ticket.id}
      onClick={() => onFocus(ticket.id)}
      style={{ height: CARD_HEIGHT, transform: `translateY(${offset}px)` }}
      className={`absolute inset-x-0 top-0 flex gap-3 border-b border-zinc-100 px-3 py-2 text-sm dark:border-zinc-800/60 ${
        selected ? 'bg-blue-50 dark:bg-blue-950/40' : ''
      } ${focused ? 'shadow-[inset_3px_0_0_0] shadow-blue-600' : ''}`}
    >
      <div className="pt-0.5">
        <SelectBox ticket={ticket} selected={selected} onToggle={onToggle} />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex items-baseline justify-between gap-2">
          <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{ticket.ticketIdentifier}</span>
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            <Updated ticket={ticket} />
          </span>
        </div>
        <div className="truncate">
          {isChatTicket(ticket) ? <ChatMark /> : null}
          <TicketLink ticket={ticket} />
        </div>
        <div className="flex min-w-0 items-center gap-2 text-xs text-zinc-600 dark:text-zinc-300">
          <StatusBadge ticket={ticket} />
          <span>{ticket.priority}</span>
          <SlaDueBadge ticket={ticket} />
          <span className="truncate">· {requestorName(ticket)}</span>
          <span className="ml-auto shrink-0 truncate">{ticket.assignedAgent ?? 'Unassigned'}</span>
        </div>
      </div>
    </li>
  );
}
