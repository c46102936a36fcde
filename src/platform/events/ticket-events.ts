import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { ActivityChange } from '../ticket-activities/ticket-activity.changes.js';
import { presentTicketIncludingDeleted } from '../tickets/ticket.lookup.js';
import type { Ticket } from '../tickets/ticket.presenter.js';
import { type EventActor, type EventDeps, type NewEvent, recordEvents } from './event.recorder.js';

/**
 * The events of a ticket change, called by the timeline recorder (`ticket-activity.recorder.ts`),
 * which every path that changes a ticket goes through under the ticket's row lock: `ticket.updated`
 * with the changed fields, and besides it `ticket.status_changed` and `ticket.assigned` when those
 * fields changed; a deletion is `ticket.deleted` alone. `data` is the ticket as the API answers it
 * after the change (read again here, in the transaction).
 */
export async function recordTicketChangeEvents(
  trx: Transaction<DB>,
  deps: EventDeps,
  organizationId: string,
  ticketId: string,
  actor: EventActor,
  changes: readonly ActivityChange[],
): Promise<void> {
  if (changes.length === 0) {
    return;
  }
  const ticket = await readTicket(trx, organizationId, ticketId);
  const about = { actor, data: ticket, ticket: ticketVisibility(ticket) };
  const fields = new Set(changes.map((change) => change.field));
  if (fields.has('deleted')) {
    await recordEvents(trx, deps, organizationId, [{ type: 'ticket.deleted', ...about }]);
    return;
  }
  const events: NewEvent[] = [{ type: 'ticket.updated', ...about, changes }];
  if (fields.has('status')) {
    events.push({ type: 'ticket.status_changed', ...about, changes: changes.filter((change) => change.field === 'status') });
  }
  if (fields.has('assignee')) {
    events.push({ type: 'ticket.assigned', ...about, changes: changes.filter((change) => change.field === 'assignee') });
  }
  await recordEvents(trx, deps, organizationId, events);
}

/** A new ticket: `ticket.created`, and `ticket.assigned` when it has an agent from the start (named or routed). */
export async function recordTicketCreatedEvents(
  trx: Transaction<DB>,
  deps: EventDeps,
  organizationId: string,
  ticketId: string,
  actor: EventActor,
  assignedBy: EventActor,
): Promise<void> {
  const ticket = await readTicket(trx, organizationId, ticketId);
  const visibility = ticketVisibility(ticket);
  const events: NewEvent[] = [{ type: 'ticket.created', actor, data: ticket, ticket: visibility }];
  if (ticket.assignedAgentId) {
    events.push({
      type: 'ticket.assigned',
      actor: assignedBy,
      data: ticket,
      ticket: visibility,
      changes: [{ field: 'assignee', oldValue: null, newValue: { id: ticket.assignedAgentId, name: ticket.assignedAgent } }],
    });
  }
  await recordEvents(trx, deps, organizationId, events);
}

async function readTicket(trx: Transaction<DB>, organizationId: string, ticketId: string): Promise<Ticket> {
  return presentTicketIncludingDeleted(trx, organizationId, ticketId);
}

export function ticketVisibility(ticket: Pick<Ticket, 'id' | 'teamId' | 'isPrivate'>) {
  return { id: ticket.id, teamId: ticket.teamId, isPrivate: ticket.isPrivate };
}

/**
 * `ticket.updated` for each ticket a team tag left (the tag was deleted or became a skills tag),
 * written after the tag's rows are gone so that `data` shows the tickets without it. The tickets
 * are read one by one: deleting a tag that many tickets carry is rare and done by an admin.
 */
export async function recordTicketsTagLeftEvents(
  trx: Transaction<DB>,
  deps: EventDeps,
  organizationId: string,
  actor: EventActor,
  entries: readonly { ticketId: string; change: ActivityChange }[],
): Promise<void> {
  const events: NewEvent[] = [];
  for (const { ticketId, change } of entries) {
    const ticket = await readTicket(trx, organizationId, ticketId);
    events.push({ type: 'ticket.updated', actor, data: ticket, ticket: ticketVisibility(ticket), changes: [change] });
  }
  await recordEvents(trx, deps, organizationId, events);
}
