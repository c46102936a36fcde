import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { recordEvent } from '../events/event.recorder.js';
import { type Comment, toComment } from './comment.presenter.js';
import { findCommentById, insertCommentOnce, updateComment } from './comment.repository.js';
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

/**
 * A customer's comment changed where it was written (they edited their Slack message): its content
 * replaced and marked edited, with `comment.updated`, in the caller's transaction. Answers false
 * for a comment that is gone or not a customer contact's.
 */
export async function editCustomerCommentFromChannel(
  trx: Transaction<DB>,
  deps: Pick<CommentDeps, 'clock'>,
  input: Pick<CustomerComment, 'organizationId' | 'ticket' | 'content'> & { commentId: string },
): Promise<boolean> {
  const existing = await findCommentById(trx, input.ticket.id, input.commentId);
  const contactId = existing?.customer_contact_id;
  if (!contactId) {
    return false;
  }
  await updateComment(trx, input.commentId, {
    ...contentColumns(input.content),
    is_edited: true,
    updated_at: deps.clock.now().toISOString(),
  });
  const stored = await findCommentById(trx, input.ticket.id, input.commentId);
  if (!stored) {
    return false;
  }
  const { emailDelivery: _, ...comment } = toComment(stored) as Comment;
  await recordEvent(trx, deps, input.organizationId, {
    type: 'comment.updated',
    actor: { type: 'customer_contact', id: contactId, name: comment.author },
    data: comment,
    ticket: { id: input.ticket.id, teamId: input.ticket.team_id, isPrivate: readBoolean(input.ticket.is_private) },
    internal: false,
  });
  return true;
}

/**
 * A customer's comment removed where it was written (they deleted their Slack message): soft
 * deleted, as an author's delete is. Answers false for one gone already or not a customer contact's.
 */
export async function removeCustomerCommentFromChannel(
  trx: Transaction<DB>,
  deps: Pick<CommentDeps, 'clock'>,
  input: { ticketId: string; commentId: string },
): Promise<boolean> {
  const existing = await findCommentById(trx, input.ticketId, input.commentId);
  if (!existing?.customer_contact_id) {
    return false;
  }
  const at = deps.clock.now().toISOString();
  await updateComment(trx, input.commentId, { deleted_at: at, updated_at: at });
  return true;
}
