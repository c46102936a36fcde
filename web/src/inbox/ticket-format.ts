import { hasMailbox } from '../api/ticket-source';
import type { Ticket } from '../api/types';

/** Who asked: the contact's name when the API knows it, else the address (a messenger visitor may have left none). */
export function requestorName(ticket: Ticket): string {
  const name = [ticket.customerContactFirstName, ticket.customerContactLastName].filter(Boolean).join(' ').trim();
  return name || (hasMailbox(ticket.requestorEmail) ? ticket.requestorEmail : 'Messenger visitor');
}

const UNITS: [number, string][] = [
  [60, 's'],
  [60, 'm'],
  [24, 'h'],
  [7, 'd'],
  [4.35, 'w'],
  [12, 'mo'],
  [Number.POSITIVE_INFINITY, 'y'],
];

/** "5m", "3h", "2d": how long ago, in the space of a column. */
export function timeAgo(iso: string, now = Date.now()): string {
  let value = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (value < 45) {
    return 'now';
  }
  for (const [size, unit] of UNITS) {
    if (value < size) {
      return `${Math.floor(value)}${unit}`;
    }
    value /= size;
  }
  return '';
}
