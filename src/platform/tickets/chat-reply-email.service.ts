import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { decideChatReply, findEmailedTicket, insertChatReplyEmail, listDueChatReplies } from './chat-reply-email.repository.js';
import type { ChatReplyEmailStatus } from './chat-reply-email.table.js';
import { chatVisitorLastSeen } from './chat-ticket-visitor.service.js';
import type { CommentRow } from './comment.repository.js';
import { findCommentById } from './comment.repository.js';
import { type EmailedTicket, queueCommentEmail } from './comment-email.js';

/**
 * A person's reply on a chat ticket reaches the visitor in the messenger at once; it is emailed
 * only if the visitor is away: when it is due (two minutes on), a reply whose visitor had no panel
 * open for those two minutes goes to the requestor's address through the ticket's threaded email,
 * so the visitor's email reply continues the ticket. A visitor who left no address gets none.
 */

/** How long after a reply its visitor must have been away for it to be emailed. */
export const CHAT_EMAIL_AFTER_MS = 2 * 60_000;
/** The `.invalid` requestor of an anonymous visitor who left no address (RFC 6761: never delivered). */
const NO_ADDRESS = /\.invalid$/i;

interface Deps extends TicketEmailDeps {
  db: Kysely<DB>;
}

/** The reply waits for its due time; in the transaction that stores it. */
export async function scheduleChatReplyEmail(
  trx: Transaction<DB>,
  deps: Pick<TicketEmailDeps, 'clock'>,
  ticket: Pick<EmailedTicket, 'id' | 'organization_id'>,
  comment: Pick<CommentRow, 'id'>,
): Promise<void> {
  await insertChatReplyEmail(trx, {
    comment_id: comment.id,
    organization_id: ticket.organization_id,
    ticket_id: ticket.id,
    status: 'pending',
    due_at: new Date(deps.clock.now().getTime() + CHAT_EMAIL_AFTER_MS).toISOString(),
    decided_at: null,
  });
}

/** What becomes of a due reply: emailed, or why not. */
function decide(ticket: EmailedTicket | undefined, comment: CommentRow | undefined, lastSeenAt: string | undefined, now: Date) {
  if (!ticket || !comment) {
    return 'gone' as const;
  }
  if (lastSeenAt !== undefined && now.getTime() - Date.parse(lastSeenAt) < CHAT_EMAIL_AFTER_MS) {
    return 'seen' as const;
  }
  return NO_ADDRESS.test(ticket.requestor_email) ? ('no_address' as const) : ('emailed' as const);
}

/**
 * One due reply decided and, if the visitor is away, emailed, in one transaction; the status
 * moves once (a conditional update), so with several processes each reply is decided once.
 */
async function settle(deps: Deps, due: { comment_id: string; ticket_id: string; organization_id: string }): Promise<void> {
  const now = deps.clock.now();
  const lastSeenAt = await chatVisitorLastSeen(deps.db, due.ticket_id);
  await deps.db.transaction().execute(async (trx) => {
    const ticket = await findEmailedTicket(trx, due.organization_id, due.ticket_id);
    const comment = await findCommentById(trx, due.ticket_id, due.comment_id);
    const status: ChatReplyEmailStatus = decide(ticket, comment, lastSeenAt, now);
    const taken = await decideChatReply(trx, due.comment_id, status, now.toISOString());
    if (taken && status === 'emailed' && ticket && comment) {
      await queueCommentEmail(trx, deps, ticket, comment);
    }
  });
}

/** Decides the replies due now, oldest first, at most `batchSize`; answers how many. */
export async function emailDueChatReplies(deps: Deps, batchSize: number): Promise<number> {
  const due = await listDueChatReplies(deps.db, deps.clock.now().toISOString(), batchSize);
  for (const reply of due) {
    await settle(deps, reply);
  }
  return due.length;
}
