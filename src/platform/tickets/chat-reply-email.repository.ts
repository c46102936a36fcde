import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { ChatReplyEmailStatus, ChatReplyEmailTable } from './chat-reply-email.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function insertChatReplyEmail(db: Db, row: ChatReplyEmailTable): Promise<void> {
  await db
    .insertInto('chat_reply_emails')
    .values(row)
    .onConflict((conflict) => conflict.column('comment_id').doNothing())
    .execute();
}

/** The pending replies due at `now`, oldest first. */
export function listDueChatReplies(db: Db, now: string, limit: number) {
  return db
    .selectFrom('chat_reply_emails')
    .select(['comment_id', 'ticket_id', 'organization_id'])
    .where('status', '=', 'pending')
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

/** Moves a pending reply to `status`; false when another process decided it first. */
export async function decideChatReply(db: Db, commentId: string, status: ChatReplyEmailStatus, at: string): Promise<boolean> {
  const taken = await db
    .updateTable('chat_reply_emails')
    .set({ status, decided_at: at })
    .where('comment_id', '=', commentId)
    .where('status', '=', 'pending')
    .returning('comment_id')
    .executeTakeFirst();
  return taken !== undefined;
}

/** What a reply's email names of its live ticket. */
export function findEmailedTicket(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('tickets')
    .select(['id', 'organization_id', 'team_id', 'ticket_identifier', 'requestor_email', 'title'])
    .where('id', '=', ticketId)
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
