import type { Expression, ExpressionBuilder, Kysely, SqlBool, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { type ChatMessageRow, type ChatThreadRow, MESSAGE_COLUMNS, THREAD_COLUMNS } from './chat.repository.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Whose threads a messenger query may see: the visitor's own and, for a verified visitor, every
 * thread of the same customer contact (from another browser), in one help center's messenger.
 */
export interface VisitorOwner {
  organizationId: string;
  helpCenterId: string;
  visitorId: string;
  contactId: string | null;
}

function ownedBy(owner: VisitorOwner) {
  return (eb: ExpressionBuilder<DB, 'chat_threads'>): Expression<SqlBool> => {
    const byVisitor = eb('chat_threads.anon_user_id', '=', owner.visitorId);
    return owner.contactId === null ? byVisitor : eb.or([byVisitor, eb('chat_threads.contact_id', '=', owner.contactId)]);
  };
}

const threadsOf = (db: Db, owner: VisitorOwner) =>
  db
    .selectFrom('chat_threads')
    .select(THREAD_COLUMNS)
    .where('chat_threads.organization_id', '=', owner.organizationId)
    .where('chat_threads.help_center_id', '=', owner.helpCenterId)
    .where('chat_threads.user_id', 'is', null)
    .where(ownedBy(owner));

export async function findVisitorThread(db: Db, owner: VisitorOwner, threadId: string): Promise<ChatThreadRow | undefined> {
  return threadsOf(db, owner).where('chat_threads.id', '=', threadId).executeTakeFirst();
}

/** The owner's threads, latest activity first. */
export async function listVisitorThreads(db: Db, owner: VisitorOwner, limit: number): Promise<ChatThreadRow[]> {
  return threadsOf(db, owner)
    .orderBy('chat_threads.last_activity_at', 'desc')
    .orderBy('chat_threads.id', 'desc')
    .limit(limit)
    .execute();
}

/** Records whether an answer helped; a later rating of the same answer replaces the earlier. */
export async function upsertFeedback(
  db: Db,
  row: { messageId: string; organizationId: string; threadId: string; helpful: boolean; at: string },
): Promise<void> {
  const feedbackType = row.helpful ? 'positive' : 'negative';
  await db
    .insertInto('chat_message_feedback')
    .values({
      message_id: row.messageId,
      organization_id: row.organizationId,
      thread_id: row.threadId,
      feedback_type: feedbackType,
      created_at: row.at,
      updated_at: row.at,
    })
    .onConflict((oc) => oc.column('message_id').doUpdateSet({ feedback_type: feedbackType, updated_at: row.at }))
    .execute();
}

/** The ratings of a thread's answers, by message id. */
export async function listFeedbackOfThread(db: Db, threadId: string): Promise<Map<string, boolean>> {
  const rows = await db
    .selectFrom('chat_message_feedback')
    .select(['message_id', 'feedback_type'])
    .where('thread_id', '=', threadId)
    .execute();
  return new Map(rows.map((row) => [row.message_id, row.feedback_type === 'positive']));
}

/** The thread's latest `limit` messages a visitor sees (their words and the answers), oldest first. */
export async function listLatestVisitorMessages(db: Db, threadId: string, limit: number): Promise<ChatMessageRow[]> {
  const rows = await db
    .selectFrom('chat_messages')
    .select(MESSAGE_COLUMNS)
    .where('thread_id', '=', threadId)
    .where('role', 'in', ['user', 'assistant'])
    .orderBy('sort_key', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** The rating of one answer, or null. */
export async function findFeedback(db: Db, messageId: string): Promise<boolean | null> {
  const row = await db
    .selectFrom('chat_message_feedback')
    .select('feedback_type')
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row ? row.feedback_type === 'positive' : null;
}

/** An agent and the user who made it (whose permissions its comments are written with). */
export function findAgentMaker(db: Db, agentId: string) {
  return db.selectFrom('agents').select(['id', 'created_by_id']).where('id', '=', agentId).executeTakeFirstOrThrow();
}
