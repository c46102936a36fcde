import { Link } from '@tanstack/react-router';
import { isChatTicket } from '../api/ticket-source';
import type { Ticket } from '../api/types';
import { ChatMark } from '../ui/ChatMark';
import { SlaDueBadge } from './SlaDueBadge';
import { requestorName, timeAgo } from './ticket-format';

/** The columns of the wide list, shared by the header and every row. */
export const TICKET_COLUMNS =
  'grid grid-cols-[2rem_4.5rem_minmax(12rem,1fr)_8rem_6rem_4.5rem_8.5rem_7rem_6rem_6rem_3rem] items-center gap-x-2';

export const ROW_HEIGHT = 40;

export interface RowProps {
  ticket: Ticket;
  index: number;
  /** Where the virtual list places it, in pixels from the top of the rows. */
  offset: number;
  focused: boolean;
  selected: boolean;
  onToggle: (id: string, range: boolean) => void;
  onFocus: (id: string) => void;
}

/** One ticket as a row of the wide list: the columns of issue 17, the title opening it. */
export function TicketRow({ ticket, index, offset, focused, selected, onToggle, onFocus }: RowProps) {
  return (
    <tr
      aria-rowindex={index + 2}
      aria-current={focused ? 'true' : undefined}
      data-ticket-id={ticket.id}
      onClick={() => onFocus(ticket.id)}
      style={{ height: ROW_HEIGHT, transform: `translateY(${offset}px)` }}
      className={`${TICKET_COLUMNS} absolute inset-x-0 top-0 border-b border-zinc-100 px-2 text-sm dark:border-zinc-800/60 ${
        selected ? 'bg-blue-50 dark:bg-blue-950/40' : 'hover:bg-zinc-50 dark:hover:bg-zinc-900'
      } ${focused ? 'shadow-[inset_3px_0_0_0] shadow-blue-600' : ''}`}
    >
      <td className="flex justify-center">
        <SelectBox ticket={ticket} selected={selected} onToggle={onToggle} />
      </td>
      <td className="truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">{ticket.ticketIdentifier}</td>
      <td className="min-w-0 truncate">
        {isChatTicket(ticket) ? <ChatMark /> : null}
        <TicketLink ticket={ticket} />
      </td>
      <td className="truncate text-zinc-600 dark:text-zinc-300" title={ticket.requestorEmail}>
        {requestorName(ticket)}
      </td>
      <td className="truncate">
        <StatusBadge ticket={ticket} />
      </td>
      <td className="truncate text-zinc-600 dark:text-zinc-300">{ticket.priority}</td>
      <td className="truncate text-xs tabular-nums">
        <SlaDueBadge ticket={ticket} />
      </td>
      <td className="truncate text-zinc-600 dark:text-zinc-300">
        {ticket.assignedAgent ?? <span className="text-zinc-400 dark:text-zinc-500">Unassigned</span>}
      </td>
      <td className="truncate text-zinc-600 dark:text-zinc-300">{ticket.teamName}</td>
      <td className="truncate text-xs text-zinc-500 dark:text-zinc-400">{ticket.tags.map((tag) => tag.name).join(', ')}</td>
      <td className="text-right text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
        <Updated ticket={ticket} />
      </td>
    </tr>
  );
}

export function SelectBox({
  ticket,
  selected,
  onToggle,
}: {
  ticket: Ticket;
  selected: boolean;
  onToggle: (id: string, range: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      className="h-4 w-4 accent-blue-600"
      aria-label={`Select ${ticket.ticketIdentifier}`}
      checked={selected}
      onClick={(event) => event.stopPropagation()}
      // A checkbox's change comes from a click (or Space): shift held extends the selection as a range.
      onChange={(event) => onToggle(ticket.id, (event.nativeEvent as MouseEvent).shiftKey === true)}
    />
  );
}

export function TicketLink({ ticket }: { ticket: Ticket }) {
  return (
    <Link
      to="/tickets/$ticketId"
      params={{ ticketId: ticket.id }}
      className="font-medium text-zinc-900 hover:underline dark:text-zinc-100"
      title={ticket.title}
    >
      {ticket.title}
    </Link>
  );
}

export function StatusBadge({ ticket }: { ticket: Ticket }) {
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-medium ${
        ticket.isClosed
          ? 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300'
          : 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'
      }`}
    >
      {ticket.status}
    </span>
  );
}

export function Updated({ ticket }: { ticket: Ticket }) {
  return (
    <time dateTime={ticket.updatedAt} title={`Updated ${new Date(ticket.updatedAt).toLocaleString()}`}>
      {timeAgo(ticket.updatedAt)}
    </time>
  );
}
