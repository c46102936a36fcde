import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import type { Principal } from '../../lib/principal.js';
import { mayMention } from '../../shared/mentions.js';
import { mentionedUserIds, notifyTicketChange } from '../notifications/ticket-notification.service.js';
import type { CommentRow } from './comment.repository.js';
import { applyCustomerReply } from './customer-reply.service.js';
import type { TicketCommentTable } from './ticket.table.js';

/** A comment's effects may email (`ticket-email.service.ts`). */
type Deps = TicketEmailDeps;

/**
 * Whether a new comment may do more than be stored (reopen its ticket, email someone), and so
 * needs a transaction: a reply from the customer, or an internal note that may mention someone.
 */
export function commentHasEffects(input: {
  customerEmail?: string;
  content: string;
  visibility: TicketCommentTable['comment_visibility'];
  metadata?: Record<string, unknown> | null;
}): boolean {
  return Boolean(input.customerEmail) || (input.visibility === 'private' && mayMention(input.content, input.metadata));
}

/**
 * What a new comment does in its transaction besides being stored: a customer's reply reopens a
 * closed ticket and tells the assignee (or the team); an internal note tells the people it
 * mentions who may see the ticket. Its author is never told.
 */
export async function applyCommentEffects(
  trx: Transaction<DB>,
  deps: Deps,
  principal: Principal,
  comment: CommentRow,
): Promise<void> {
  if (comment.customer_contact_id !== null && comment.author_id === null) {
    const name = [comment.contact_first_name, comment.contact_last_name].filter(Boolean).join(' ');
    await applyCustomerReply(trx, deps, {
      organizationId: comment.organization_id,
      ticketId: comment.ticket_id,
      commentId: comment.id,
      text: comment.content,
      contactId: comment.customer_contact_id,
      customerName: name || comment.contact_email || 'The customer',
      relayedByUserId: principal.userId,
    });
    return;
  }
  const metadata = readJson<Record<string, unknown>>(comment.metadata);
  if (comment.comment_visibility !== 'private' || !mayMention(comment.content, metadata)) {
    return;
  }
  const userIds = await mentionedUserIds(trx, comment.organization_id, comment.content, metadata);
  if (userIds.length > 0) {
    await notifyTicketChange(trx, deps, {
      organizationId: comment.organization_id,
      ticketId: comment.ticket_id,
      actor: { userId: principal.userId },
      changeKey: `comment:${comment.id}`,
      commentId: comment.id,
      events: [{ type: 'mentioned', text: comment.content, userIds }],
    });
  }
}
