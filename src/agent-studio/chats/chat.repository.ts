import { type Kysely, sql, type Transaction } from 'kysely';
import { prepareQuery, prepareQueryByShape } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { inJsonArray } from '../../db/dialect.js';
import { afterKeys, inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
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

/** A listed message also carries its `sort_key`, a key of the next page's cursor. */
const PAGED_MESSAGE_COLUMNS = [
  'chat_messages.id',
  'chat_messages.thread_id',
  'chat_messages.role',
  'chat_messages.content',
  'chat_messages.content_html',
  'chat_messages.tool_calls',
  'chat_messages.attachments',
  'chat_messages.metadata',
  'chat_messages.created_at',
  'chat_messages.sort_key',
] as const;

export type ChatThreadRow = ChatThreadTable;
export type ChatMessageRow = Pick<ChatMessageTable, (typeof MESSAGE_COLUMNS)[number]>;

/** Whose threads a query may see: one user of one organization. */
export interface ThreadOwner {
  organizationId: string;
  userId: string;
}

/** A page: `limit` rows after the keys of the row before it (`after`), or `offset` rows in. */
export interface ChatPage {
  after?: readonly CursorKey[];
  offset?: number;
  limit: number;
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

/** A page of the owner's threads with one agent, latest activity first; keys `[last_activity_at, id]`. */
export async function listThreadsOfAgent(db: Db, owner: ThreadOwner, agentId: string, page: ChatPage): Promise<ChatThreadRow[]> {
  const threads = db
    .selectFrom('chat_threads')
    .where('chat_threads.organization_id', '=', owner.organizationId)
    .where('chat_threads.user_id', '=', owner.userId)
    .where('chat_threads.agent_id', '=', agentId);
  if (page.offset) {
    // Deferred join: the index alone skips `offset` rows and gives the page's ids; only those rows are read.
    const ids = threads
      .select(['chat_threads.id', 'chat_threads.last_activity_at'])
      .orderBy('chat_threads.last_activity_at', 'desc')
      .orderBy('chat_threads.id', 'desc')
      .limit(page.limit)
      .offset(page.offset);
    return db
      .selectFrom(ids.as('page'))
      .innerJoin('chat_threads', 'chat_threads.id', 'page.id')
      .select(THREAD_COLUMNS)
      .orderBy('page.last_activity_at', 'desc')
      .orderBy('page.id', 'desc')
      .execute();
  }
  const query = threads.select(THREAD_COLUMNS);
  return inKeysetOrder(query, ['chat_threads.last_activity_at', 'chat_threads.id'], page.after, 'desc')
    .limit(page.limit)
    .execute();
}

interface HistoryParams {
  organizationId: string;
  userId: string;
  agentId?: string;
  afterTime?: string;
  afterId?: string;
  limit: number;
}

/** Compiled once per shape (an agent or all, a cursor or not, the page size, written in). */
const historyThreadsStatement = prepareQueryByShape<HistoryParams, ChatThreadRow>(
  (params) => [params.agentId !== undefined, params.afterTime !== undefined, params.limit].join(':'),
  (db, param, shape) => {
    let query = db
      .selectFrom('chat_threads')
      .innerJoin('agents', 'agents.id', 'chat_threads.agent_id')
      .select(THREAD_COLUMNS)
      .where('chat_threads.organization_id', '=', param('organizationId'))
      .where('chat_threads.user_id', '=', param('userId'))
      .where('agents.deleted_at', 'is', null);
    if (shape.agentId !== undefined) {
      query = query.where('chat_threads.agent_id', '=', param('agentId') as string);
    }
    if (shape.afterTime !== undefined) {
      query = query.where(
        afterKeys(
          ['chat_threads.last_activity_at', 'chat_threads.id'],
          [param('afterTime') as string, param('afterId') as string],
          'desc',
        ),
      );
    }
    return query.orderBy('chat_threads.last_activity_at', 'desc').orderBy('chat_threads.id', 'desc').limit(sql.lit(shape.limit));
  },
);

/**
 * One page of the owner's threads with live agents, ordered by (last_activity_at, id) descending
 * and starting strictly after `after`: a keyset page, so a walk sees each thread once.
 */
export async function listHistoryThreads(
  db: Db,
  owner: ThreadOwner,
  options: { agentId?: string; after?: { lastActivityAt: string; id: string }; limit: number },
): Promise<ChatThreadRow[]> {
  const { rows } = await historyThreadsStatement.execute(db, {
    organizationId: owner.organizationId,
    userId: owner.userId,
    agentId: options.agentId || undefined,
    afterTime: options.after?.lastActivityAt,
    afterId: options.after?.id,
    limit: options.limit,
  });
  return rows;
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

/** A page of a thread's messages, oldest first (in write order); keys `[sort_key, id]`. */
export async function listMessages(db: Db, threadId: string, page: ChatPage): Promise<(ChatMessageRow & { sort_key: string })[]> {
  const messages = db.selectFrom('chat_messages').where('chat_messages.thread_id', '=', threadId);
  if (page.offset) {
    // Deferred join, as for threads.
    const ids = messages
      .select(['chat_messages.id', 'chat_messages.sort_key'])
      .orderBy('chat_messages.sort_key')
      .orderBy('chat_messages.id')
      .limit(page.limit)
      .offset(page.offset);
    return db
      .selectFrom(ids.as('page'))
      .innerJoin('chat_messages', 'chat_messages.id', 'page.id')
      .select(PAGED_MESSAGE_COLUMNS)
      .orderBy('page.sort_key')
      .orderBy('page.id')
      .execute();
  }
  const query = messages.select(PAGED_MESSAGE_COLUMNS);
  return inKeysetOrder(query, ['chat_messages.sort_key', 'chat_messages.id'], page.after).limit(page.limit).execute();
}

const messagesOfThreadsStatement = prepareQuery<{ threadIds: string }, ChatMessageRow>((db: Db, param) =>
  db
    .selectFrom('chat_messages')
    .select(MESSAGE_COLUMNS)
    .where(inJsonArray(db, 'thread_id', param('threadIds')))
    .orderBy('thread_id')
    .orderBy('sort_key'),
);

/** Every message of the given threads, each thread's oldest first: one compiled statement for any number of threads. */
export async function listMessagesOfThreads(db: Db, threadIds: string[]): Promise<ChatMessageRow[]> {
  if (threadIds.length === 0) {
    return [];
  }
  const { rows } = await messagesOfThreadsStatement.execute(db, { threadIds: JSON.stringify(threadIds) });
  return rows;
}
