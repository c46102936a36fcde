import { type Kysely, sql, type Transaction } from 'kysely';
import { prepareQuery, prepareQueryByShape } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { escapeLike, inJsonArray, likeOperator } from '../../db/dialect.js';
import { afterKeys, inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import { compareText } from '../../lib/order.js';
import type { ChatMessageTable, ChatThreadTable } from './chat.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export const THREAD_COLUMNS = [
  'chat_threads.id',
  'chat_threads.organization_id',
  'chat_threads.agent_id',
  'chat_threads.user_id',
  'chat_threads.anon_user_id',
  'chat_threads.contact_id',
  'chat_threads.help_center_id',
  'chat_threads.title',
  'chat_threads.metadata',
  'chat_threads.last_activity_at',
  'chat_threads.created_at',
  'chat_threads.updated_at',
] as const;

export const MESSAGE_COLUMNS = [
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

/** Any thread by id, whoever owns it: for what the runtime reads of the thread of a run it holds. */
export async function findThreadById(db: Db, threadId: string): Promise<ChatThreadRow | undefined> {
  return db.selectFrom('chat_threads').select(THREAD_COLUMNS).where('chat_threads.id', '=', threadId).executeTakeFirst();
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
  /** `%text%`, its wildcards escaped: threads whose title or a message holds the text. */
  containing?: string;
  afterTime?: string;
  afterId?: string;
  limit: number;
}

/** A thread of a history page beside one of its messages (the message's columns null when it has none). */
type HistoryRow = ChatThreadRow & {
  [Column in (typeof MESSAGE_COLUMNS)[number] as `message_${Column}`]: ChatMessageRow[Column] | null;
} & { message_sort_key: string | null };

/** Latest activity first, then each thread's messages in write order (a thread without any has one row). */
const inHistoryOrder = (a: HistoryRow, b: HistoryRow) =>
  compareText(b.last_activity_at, a.last_activity_at) ||
  compareText(b.id, a.id) ||
  compareText(a.message_sort_key, b.message_sort_key) ||
  compareText(a.message_id, b.message_id);

/**
 * A page of threads with their messages in one statement: the page's threads (an index range of
 * the owner's, latest activity first), each joined to its messages (the `chat_messages_thread_order`
 * index), put in order by `listHistory` rather than sorted by the database. Compiled once per shape
 * (an agent or all, a cursor or not, the page size, written in).
 */
const historyStatement = prepareQueryByShape<HistoryParams, HistoryRow>(
  (params) =>
    [params.agentId !== undefined, params.containing !== undefined, params.afterTime !== undefined, params.limit].join(':'),
  (db, param, shape) => {
    let threads = db
      .selectFrom('chat_threads')
      .innerJoin('agents', 'agents.id', 'chat_threads.agent_id')
      .select(THREAD_COLUMNS)
      .where('chat_threads.organization_id', '=', param('organizationId'))
      .where('chat_threads.user_id', '=', param('userId'))
      .where('agents.deleted_at', 'is', null);
    if (shape.agentId !== undefined) {
      threads = threads.where('chat_threads.agent_id', '=', param('agentId') as string);
    }
    if (shape.containing !== undefined) {
      const like = sql.raw(likeOperator(db));
      const pattern = param('containing') as string;
      threads = threads.where((eb) =>
        eb.or([
          sql<boolean>`chat_threads.title ${like} ${pattern} escape '\\'`,
          eb.exists(
            eb
              .selectFrom('chat_messages as searched')
              .select(sql.lit(1).as('one'))
              .whereRef('searched.thread_id', '=', 'chat_threads.id')
              .where(sql<boolean>`searched.content ${like} ${pattern} escape '\\'`),
          ),
        ]),
      );
    }
    if (shape.afterTime !== undefined) {
      threads = threads.where(
        afterKeys(
          ['chat_threads.last_activity_at', 'chat_threads.id'],
          [param('afterTime') as string, param('afterId') as string],
          'desc',
        ),
      );
    }
    const page = threads
      .orderBy('chat_threads.last_activity_at', 'desc')
      .orderBy('chat_threads.id', 'desc')
      .limit(sql.lit(shape.limit));
    return db
      .selectFrom(page.as('page'))
      .leftJoin('chat_messages', 'chat_messages.thread_id', 'page.id')
      .selectAll('page')
      .select(MESSAGE_COLUMNS.map((column) => `chat_messages.${column} as message_${column}` as const))
      .select('chat_messages.sort_key as message_sort_key');
  },
);

/**
 * One page of the owner's threads with live agents (those whose title or a message holds
 * `containing`, case-insensitively, when given), ordered by (last_activity_at, id) descending
 * and starting strictly after `after` (a keyset page, so a walk sees each thread once), each with
 * every message of it, oldest first.
 */
export async function listHistory(
  db: Db,
  owner: ThreadOwner,
  options: { agentId?: string; containing?: string; after?: { lastActivityAt: string; id: string }; limit: number },
): Promise<{ thread: ChatThreadRow; messages: ChatMessageRow[] }[]> {
  const { rows } = await historyStatement.execute(db, {
    organizationId: owner.organizationId,
    userId: owner.userId,
    agentId: options.agentId || undefined,
    containing: options.containing ? `%${escapeLike(options.containing)}%` : undefined,
    afterTime: options.after?.lastActivityAt,
    afterId: options.after?.id,
    limit: options.limit,
  });
  const page: { thread: ChatThreadRow; messages: ChatMessageRow[] }[] = [];
  for (const row of rows.sort(inHistoryOrder)) {
    let entry = page.at(-1);
    if (entry?.thread.id !== row.id) {
      const { id, organization_id, agent_id, user_id, anon_user_id, contact_id, help_center_id, title, metadata } = row;
      const { last_activity_at, created_at, updated_at } = row;
      entry = {
        thread: {
          ...{ id, organization_id, agent_id, user_id, anon_user_id, contact_id, help_center_id, title, metadata },
          ...{ last_activity_at, created_at, updated_at },
        },
        messages: [],
      };
      page.push(entry);
    }
    if (row.message_id !== null) {
      entry.messages.push({
        id: row.message_id,
        thread_id: row.id,
        role: row.message_role as ChatMessageRow['role'],
        content: row.message_content as ChatMessageRow['content'],
        content_html: row.message_content_html as ChatMessageRow['content_html'],
        tool_calls: row.message_tool_calls as ChatMessageRow['tool_calls'],
        attachments: row.message_attachments as ChatMessageRow['attachments'],
        metadata: row.message_metadata as ChatMessageRow['metadata'],
        created_at: row.message_created_at as ChatMessageRow['created_at'],
      });
    }
  }
  return page;
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
