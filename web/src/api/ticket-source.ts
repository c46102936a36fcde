import type { Ticket } from './types';

/** The `source` of a ticket that began in the messenger (a visitor handed to a person): the server's `CHAT_SOURCE`. */
export const CHAT_SOURCE = 'chat';

/** Whether the ticket is a messenger chat: its replies go to the visitor's chat, and the visitor's presence shows. */
export function isChatTicket(ticket: Pick<Ticket, 'source'>): boolean {
  return ticket.source === CHAT_SOURCE;
}

/**
 * Whether mail can reach an address: not one in `.invalid` (RFC 6761), which the messenger gives
 * an anonymous visitor who left no address, so that nothing is ever sent to it.
 */
export function hasMailbox(address: string): boolean {
  return !/\.invalid$/i.test(address.trim());
}
