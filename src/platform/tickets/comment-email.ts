import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { enqueueTicketEmail, type TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { commentEmailKey, toComment } from './comment.presenter.js';
import type { CommentRow } from './comment.repository.js';

/** What a comment's email names of its ticket. */
export type EmailedTicket = { id: string; organization_id: string; team_id: string; ticket_identifier: string } & {
  requestor_email: string;
  title: string;
};

/**
 * A public comment to the requestor: the customer's thread of the ticket, in text and sanitised
 * HTML, once per comment (its outbox key).
 */
export async function queueCommentEmail(
  trx: Transaction<DB>,
  deps: TicketEmailDeps,
  ticket: EmailedTicket,
  comment: CommentRow,
): Promise<void> {
  const author = toComment(comment).author ?? 'Support';
  await enqueueTicketEmail(trx, deps, {
    organizationId: ticket.organization_id,
    ticket: { id: ticket.id, identifier: ticket.ticket_identifier, teamId: ticket.team_id },
    commentId: comment.id,
    audience: { kind: 'customer' },
    dedupeKey: commentEmailKey(comment.id),
    to: ticket.requestor_email,
    subject: ticket.title,
    text: `${comment.content}\n\n— ${author}\nTicket ${ticket.ticket_identifier}`,
    html: `${comment.content_html}<p>— ${escapeHtml(author)}<br>Ticket ${escapeHtml(ticket.ticket_identifier)}</p>`,
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
