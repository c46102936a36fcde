import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { notifyTicketChange } from '../notifications/ticket-notification.service.js';
import { type Actor, recordActivities } from '../ticket-activities/ticket-activity.recorder.js';
import { mergedInto } from '../ticket-merges/ticket-merge.service.js';
import { recordSlaCustomerComment } from '../ticket-sla/ticket-sla.service.js';
import { lockTicketStatus } from './customer-reply.repository.js';
import { updateTicket } from './ticket.repository.js';
import type { TicketOptionRow } from './ticket-option.repository.js';
import { listTeamOptions } from './ticket-option.service.js';

/** A reply's notifications are ticket emails (`ticket-email.service.ts`). */
type Deps = TicketEmailDeps;

export interface CustomerReply {
  organizationId: string;
  ticketId: string;
  /** The stored reply; its id names the change, so the reply emails each person at most once. */
  commentId: string;
  text: string;
  /** The customer contact who wrote it: the timeline's actor of a reopen. */
  contactId: string | null;
  /** How emails name the customer: their name, else their address. */
  customerName: string;
  /** The user who relayed the reply through the API (not emailed about it); null for inbound email. */
  relayedByUserId: string | null;
}

export interface Reopened {
  fromStatusId: string;
  toStatusId: string;
}

/** Where a reopened ticket goes: the team's default status if it is open, else its first open one. */
function openStatusOf(statuses: TicketOptionRow[]): TicketOptionRow | undefined {
  return (
    statuses.find((status) => readBoolean(status.is_default) && !readBoolean(status.is_closed)) ??
    statuses.find((status) => !readBoolean(status.is_closed))
  );
}

/** A ticket merged into another lives on there: its timeline's `merged` entry names where it went. */
async function wasMergedAway(trx: Transaction<DB>, ticketId: string): Promise<boolean> {
  return (await mergedInto(trx, ticketId)) !== null;
}

/**
 * A reply from the customer on a ticket in a closed status moves it back to its team's default
 * open status and clears `closedAt`, and the timeline records the status change by `actor` (a
 * ticket merged into another stays closed: it lives on in that one). In the caller's transaction,
 * with the ticket row locked (the lock the timeline's numbering relies on), so it lands with the
 * reply or not at all. Answers the move, or null when the ticket was left as it was.
 */
export async function reopenOnCustomerReply(
  trx: Transaction<DB>,
  deps: Deps,
  organizationId: string,
  ticketId: string,
  actor: Actor,
): Promise<Reopened | null> {
  const ticket = await lockTicketStatus(trx, organizationId, ticketId);
  if (!ticket) {
    return null;
  }
  const statuses = await listTeamOptions(trx, deps, { id: ticket.team_id, organization_id: organizationId }, 'status');
  const current = statuses.find((status) => status.id === ticket.status_id);
  const open = openStatusOf(statuses);
  if (!current || !readBoolean(current.is_closed) || !open || (await wasMergedAway(trx, ticket.id))) {
    return null;
  }
  await updateTicket(trx, organizationId, ticket.id, {
    status_id: open.id,
    closed_at: null,
    updated_at: deps.clock.now().toISOString(),
  });
  await recordActivities(trx, deps, organizationId, ticket.id, actor, [
    {
      field: 'status',
      oldValue: { id: current.id, name: current.display_name },
      newValue: { id: open.id, name: open.display_name },
    },
  ]);
  return { fromStatusId: current.id, toStatusId: open.id };
}

/**
 * What a customer's reply does to its ticket, in the transaction that stores it: reopens a closed
 * ticket, then emails the assignee (or the team while nobody is assigned). The comment endpoint
 * calls it for a comment with `customerEmail`; the email channel calls it for an inbound reply.
 */
export async function applyCustomerReply(trx: Transaction<DB>, deps: Deps, reply: CustomerReply): Promise<Reopened | null> {
  const actor: Actor = reply.contactId
    ? { type: 'customer_contact', id: reply.contactId }
    : { type: 'system', id: null, name: reply.customerName };
  const reopened = await reopenOnCustomerReply(trx, deps, reply.organizationId, reply.ticketId, actor);
  await recordSlaCustomerComment(trx, deps, { organizationId: reply.organizationId, ticketId: reply.ticketId, actor });
  await notifyTicketChange(trx, deps, {
    organizationId: reply.organizationId,
    ticketId: reply.ticketId,
    actor: { userId: reply.relayedByUserId, name: reply.customerName },
    changeKey: `comment:${reply.commentId}`,
    commentId: reply.commentId,
    events: [{ type: 'customerReply', text: reply.text, reopened: reopened !== null }],
  });
  return reopened;
}
