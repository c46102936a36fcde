import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import type { Principal } from '../../lib/principal.js';
import type { EventType } from '../../shared/event-types.js';
import { deferEvent, type NewEvent, recordEvent } from '../events/event.recorder.js';
import { AI_AGENT_AUTHOR, type Comment } from './comment.presenter.js';
import type { TicketAccessRow } from './ticket.repository.js';

/**
 * `comment.created` or `comment.updated` with the comment as the API answers it, less the
 * author's own `emailDelivery`; an internal comment is marked so readers can keep it from
 * those who may not see it. A comment on a contact's behalf is the contact's.
 */
export async function recordCommentEvent(
  trx: Transaction<DB>,
  deps: { clock: Clock },
  principal: Principal,
  ticket: Pick<TicketAccessRow, 'id' | 'team_id' | 'is_private'>,
  type: Extract<EventType, `comment.${string}`>,
  comment: Comment,
  later = false,
): Promise<void> {
  const event = commentEvent(principal, ticket, type, comment);
  if (later) {
    deferEvent(trx, principal.organizationId, event);
  } else {
    await recordEvent(trx, deps, principal.organizationId, event);
  }
}

export function commentEvent(
  principal: Principal,
  ticket: Pick<TicketAccessRow, 'id' | 'team_id' | 'is_private'>,
  type: Extract<EventType, `comment.${string}`>,
  comment: Comment,
  /** The principal's name when at hand; null looks it up. */
  principalName: string | null = null,
): NewEvent & { actor: { name: string | null } } {
  const { emailDelivery: _, slackDelivery: __, ...data } = comment;
  const byContact = comment.authorUserType === 'CUSTOMER' && comment.customerContactId !== null;
  // An agent's comment is the agent's (`data` says so), but the actor is the user it acted for.
  const byAgent = comment.authorUserType === AI_AGENT_AUTHOR;
  return {
    type,
    // The author's name is at hand: no lookup (the plain comment stays at one read and one write).
    actor: byContact
      ? { type: 'customer_contact', id: comment.customerContactId, name: comment.author }
      : { type: 'user', id: principal.userId, name: byAgent ? principalName : comment.author },
    data,
    ticket: { id: ticket.id, teamId: ticket.team_id, isPrivate: readBoolean(ticket.is_private) },
    internal: comment.commentVisibility === 'private',
  };
}
