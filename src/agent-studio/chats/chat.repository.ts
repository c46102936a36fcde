import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { ChatMessageTable, ChatThreadTable } from './chat.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const THREAD_COLUMNS = [
  'chat_threads.id',
  'chat_threads.organization_id',
  'chat_threads.agent_id',
  'chat_threads.user_id',
  'chat_threads.title',
  'chat_threads.metadata',
  'chat_threads.last_activity_at',
  'chat_threads.created_at',
  'chat_threads.updated_at',
] as const;

const MESSAGE_COLUMNS = [
  'id',
  'thread_id',
  'role',
  'content',
  'content_html',
  'tool_calls',
  'attachments',
  'metadata',
  'created_at',
] as const;

export type ChatThreadRow = ChatThreadTable;
export type ChatMessageRow = Pick<ChatMessageTable, (typeof MESSAGE_COLUMNS)[number]>;

/** Whose threads a query may see: one user of one organization. */
export interface ThreadOwner {
  organizationId: string;
  userId: string;
}

export async function insertThread(db: Db, row: ChatThreadTable): Promise<void> {
  await db.insertInto('chat_threads').values(row).execute();
}

export async function findThread(
  db: Db,
  owner: ThreadOwner,
  agentId: string,
  threadId: string,
): Promise<ChatThreadRow | undefined> {
  return db
    .selectFrom('chat_threads')
    .select(THREAD_COLUMNS)
    .where('chat_threads.organization_id', '=', owner.organizationId)
    .where('chat_threads.user_id', '=', owner.userId)
    .where('chat_threads.agent_id', '=', agentId)
    .where('chat_threads.id', '=', threadId)
    .executeTakeFirst();
}

/** The owner's threads with one agent, latest activity first. */
export async function listThreadsOfAgent(
  db: Db,
  owner: ThreadOwner,
  agentId: string,
  page: { limit: number; offset: number },
): Promise<ChatThreadRow[]> {
  return db
    .selectFrom('chat_threads')
    .select(THREAD_COLUMNS)
    .where('chat_threads.organization_id', '=', owner.organizationId)
    .where('chat_threads.user_id', '=', owner.userId)
    .where('chat_threads.agent_id', '=', agentId)
    .orderBy('chat_threads.last_activity_at', 'desc')
    .orderBy('chat_threads.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * One page of the owner's threads with live agents, ordered by (last_activity_at, id) descending
 * and starting strictly after `after`: a keyset page, so a walk sees each thread once.
 */
export async function listHistoryThreads(
  db: Db,
  owner: ThreadOwner,
  options: { agentId?: string; after?: { lastActivityAt: string; id: string }; limit: number },
): Promise<ChatThreadRow[]> {
  let query = db
    .selectFrom('chat_threads')
    .innerJoin('agents', 'agents.id', 'chat_threads.agent_id')
    .select(THREAD_COLUMNS)
    .where('chat_threads.organization_id', '=', owner.organizationId)
    .where('chat_threads.user_id', '=', owner.userId)
    .where('agents.deleted_at', 'is', null);
  if (options.agentId) {
    query = query.where('chat_threads.agent_id', '=', options.agentId);
  }
  const after = options.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('chat_threads.last_activity_at', '<', after.lastActivityAt),
        eb.and([eb('chat_threads.last_activity_at', '=', after.lastActivityAt), eb('chat_threads.id', '<', after.id)]),
      ]),
    );
  }
  return query.orderBy('chat_threads.last_activity_at', 'desc').orderBy('chat_threads.id', 'desc').limit(options.limit).execute();
}

/** A new message moves its thread to the top of the history. */
export async function touchThread(db: Db, threadId: string, at: string): Promise<void> {
  await db.updateTable('chat_threads').set({ last_activity_at: at, updated_at: at }).where('id', '=', threadId).execute();
}

export async function insertMessage(db: Db, row: ChatMessageTable): Promise<void> {
  await db.insertInto('chat_messages').values(row).execute();
}

export async function findMessage(db: Db, threadId: string, messageId: string): Promise<ChatMessageRow | undefined> {
  return db
    .selectFrom('chat_messages')
    .select(MESSAGE_COLUMNS)
    .where('thread_id', '=', threadId)
    .where('id', '=', messageId)
    .executeTakeFirst();
}

/** A thread's messages, oldest first. */
export async function listMessages(db: Db, threadId: string, page: { limit: number; offset: number }): Promise<ChatMessageRow[]> {
  return db
    .selectFrom('chat_messages')
    .select(MESSAGE_COLUMNS)
    .where('thread_id', '=', threadId)
    .orderBy('sort_key')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Every message of the given threads, each thread's oldest first. */
export async function listMessagesOfThreads(db: Db, threadIds: string[]): Promise<ChatMessageRow[]> {
  if (threadIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('chat_messages')
    .select(MESSAGE_COLUMNS)
    .where('thread_id', 'in', threadIds)
    .orderBy('thread_id')
    .orderBy('sort_key')
    .execute();
}
