import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { recordEvent } from '../events/event.recorder.js';
import { type Comment, toComment } from './comment.presenter.js';
import { findCommentById, insertCommentOnce } from './comment.repository.js';
import type { CommentDeps } from './comment.service.js';
import { type CommentContent, contentColumns, systemCommentRow } from './comment-content.js';
import { applyCustomerReply } from './customer-reply.service.js';
import type { TicketAccessRow } from './ticket.repository.js';

/** A customer's email or chat message stored as a comment of its ticket (see `addCustomerComment`). */
export interface CustomerComment {
  organizationId: string;
  ticket: Pick<TicketAccessRow, 'id' | 'team_id' | 'is_private'>;
  contactId: string;
  content: CommentContent;
  attachmentIds: readonly string[];
  /** The `email_messages` row it came from; null for a message written in the messenger. */
  sourceEmailId: string | null;
  /** A reply reopens a closed ticket and tells the assignee; the first message of a new ticket does neither. */
  isReply: boolean;
}

/**
 * A public comment by the customer contact who wrote an email or a chat message, in the caller's
 * transaction: for a reply with the effects of a customer's reply (`applyCustomerReply`), then
 * `comment.created` (last, after the reopen's ticket lock), as a comment the API relays for a
 * contact. Answers its id.
 */
export async function addCustomerComment(
  trx: Transaction<DB>,
  deps: Pick<CommentDeps, 'clock' | 'ids' | 'config' | 'secretKey'>,
  input: CustomerComment,
): Promise<string> {
  const at = deps.clock.now().toISOString();
  const row = systemCommentRow({
    id: deps.ids.ulid(),
    organization_id: input.organizationId,
    ticket_id: input.ticket.id,
    ...contentColumns(input.content),
    source_email_id: input.sourceEmailId,
    customer_contact_id: input.contactId,
    attachment_ids: JSON.stringify(input.attachmentIds),
    created_at: at,
  });
  await insertCommentOnce(trx, row);
  const stored = await findCommentById(trx, input.ticket.id, row.id);
  if (!stored) {
    throw new Error(`comment ${row.id} cannot be read back`);
  }
  const { emailDelivery: _, slackDelivery: __, ...comment } = toComment(stored) as Comment;
  if (input.isReply) {
    await applyCustomerReply(trx, deps, {
      organizationId: input.organizationId,
      ticketId: input.ticket.id,
      commentId: row.id,
      text: row.content,
      contactId: input.contactId,
      customerName: comment.author || comment.customerContactEmail || 'The customer',
      relayedByUserId: null,
    });
  }
  await recordEvent(trx, deps, input.organizationId, {
    type: 'comment.created',
    actor: { type: 'customer_contact', id: input.contactId, name: comment.author },
    data: comment,
    ticket: { id: input.ticket.id, teamId: input.ticket.team_id, isPrivate: readBoolean(input.ticket.is_private) },
    internal: false,
  });
  return row.id;
}
