import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type sanitizeHtml from 'sanitize-html';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import { loadOnce } from '../../lib/load-once.js';
import type { Principal } from '../../lib/principal.js';
import { recordEvent } from '../../platform/events/event.recorder.js';
import { DEFAULT_LIST_LIMIT, readListCursor } from '../agent-studio.pagination.js';
import { requireAgent } from '../agents/agent.lookup.js';
import { type ToolCall, toMessage, toThreadSummary } from './chat.presenter.js';
import {
  type ChatMessageRow,
  type ChatThreadRow,
  findMessage,
  findThread,
  findThreadById,
  insertMessage,
  insertThread,
  listHistory,
  listMessages,
  listMessagesOfThreads,
  listThreadsOfAgent,
  type ThreadOwner,
  touchThread,
} from './chat.repository.js';
import type { ChatHistoryQuerySchema, ChatPageQuerySchema, CreateMessageSchema, CreateThreadSchema } from './chat.schemas.js';
import type { ChatMessageTable } from './chat.table.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/**
 * Clients render `content_html`; scripts, handlers and foreign embeds are removed before it is
 * stored. sanitize-html is imported for the first such message, not at every start.
 */
const loadMessageSanitizer = loadOnce(async () => {
  const { default: sanitize } = await import('sanitize-html');
  const options: sanitizeHtml.IOptions = {
    allowedTags: [...sanitize.defaults.allowedTags, 'del', 's', 'u', 'span'],
    transformTags: { a: sanitize.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
  };
  return (html: string) => sanitize(html, options);
});

const ownerOf = (principal: Principal): ThreadOwner => ({ organizationId: principal.organizationId, userId: principal.userId });

const toThread = (row: ChatThreadRow, messages: ChatMessageRow[]) => ({
  ...toThreadSummary(row),
  messages: messages.map(toMessage),
});

/** A body `agent_id` is optional, as upstream; when sent it must be the path's. */
function requireSameAgent(bodyAgentId: string | undefined, pathAgentId: string): void {
  if (bodyAgentId !== undefined && bodyAgentId.toLowerCase() !== pathAgentId.toLowerCase()) {
    throw AppError.invalid('Value error, agent_id must equal the agent_id in the path', {
      location: 'body',
      path: ['agent_id'],
      rule: 'value_error',
    });
  }
}

/** The caller's thread with a live agent of their organization; anyone else's is a 404. */
export async function requireThread(db: Kysely<DB> | Transaction<DB>, principal: Principal, agentId: string, threadId: string) {
  const agent = await requireAgent(db, principal, agentId);
  const thread = await findThread(db, ownerOf(principal), agent.id, threadId);
  if (!thread) {
    throw AppError.notFound('Chat thread not found');
  }
  return thread;
}

export async function createThread(deps: Deps, principal: Principal, agentId: string, input: Static<typeof CreateThreadSchema>) {
  requireSameAgent(input.agent_id, agentId);
  const agent = await requireAgent(deps.db, principal, agentId);
  const at = deps.clock.now().toISOString();
  const row: ChatThreadRow = {
    id: deps.ids.uuid(),
    organization_id: agent.organization_id,
    agent_id: agent.id,
    user_id: principal.userId,
    anon_user_id: null,
    contact_id: null,
    help_center_id: null,
    title: input.title ?? null,
    metadata: writeJson(input.metadata),
    last_activity_at: at,
    created_at: at,
    updated_at: at,
  };
  await insertThread(deps.db, row);
  return toThread(await requireThread(deps.db, principal, agent.id, row.id), []);
}

/** Latest activity first (last_activity_at, then id, descending): a keyset page, or `offset` rows in. */
export async function listThreads(
  db: Kysely<DB>,
  principal: Principal,
  agentId: string,
  query: Static<typeof ChatPageQuerySchema>,
) {
  const agent = await requireAgent(db, principal, agentId);
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readListCursor(query, ['instant', 'text']);
  const rows = await listThreadsOfAgent(db, ownerOf(principal), agent.id, { after, offset: query.offset, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.last_activity_at, row.id]);
  return { items: page.items.map(toThreadSummary), nextCursor: page.nextCursor };
}

export async function getThread(db: Kysely<DB>, principal: Principal, agentId: string, threadId: string) {
  const thread = await requireThread(db, principal, agentId, threadId);
  return toThread(thread, await listMessagesOfThreads(db, [thread.id]));
}

function toolCallsOf(input: Static<typeof CreateMessageSchema>['tool_calls']): ToolCall[] {
  return (input ?? []).map((call) => ({
    tool_name: call.tool_name,
    arguments: call.arguments ?? null,
    result: call.result ?? null,
    error: call.error ?? null,
    start_time: call.start_time ?? null,
    end_time: call.end_time ?? null,
  }));
}

/**
 * Adds a message and moves the thread to the top of the caller's history, in one transaction;
 * `alongside` writes in it too (a user message's run), before the event is recorded.
 */
export async function addMessage(
  deps: Deps,
  principal: Principal,
  agentId: string,
  threadId: string,
  input: Static<typeof CreateMessageSchema>,
  alongside?: (trx: Transaction<DB>, message: ReturnType<typeof toMessage>) => Promise<void>,
) {
  requireSameAgent(input.agent_id, agentId);
  const thread = await requireThread(deps.db, principal, agentId, threadId);
  const at = deps.clock.now().toISOString();
  const id = deps.ids.uuid();
  const contentHtml = input.content_html ? (await loadMessageSanitizer())(input.content_html) : (input.content_html ?? null);
  return deps.db.transaction().execute(async (trx) => {
    await insertMessage(trx, {
      id,
      organization_id: thread.organization_id,
      thread_id: thread.id,
      sort_key: deps.ids.ulid(),
      role: input.role,
      content: input.content,
      content_html: contentHtml,
      tool_calls: writeJson(toolCallsOf(input.tool_calls)),
      attachments: null,
      metadata: writeJson(input.metadata),
      created_at: at,
    });
    await touchThread(trx, thread.id, at);
    const message = await findMessage(trx, thread.id, id);
    if (!message) {
      throw AppError.notFound('Chat message not found');
    }
    const data = toMessage(message);
    await alongside?.(trx, data);
    await recordEvent(trx, deps, thread.organization_id, {
      type: 'chat.message.created',
      actor: { type: 'user', id: principal.userId },
      data,
      // A chat thread is its owner's: other agents never see it.
      privateToUserId: principal.userId,
    });
    return data;
  });
}

/** Oldest first, in write order (sort_key, then id): a keyset page, or `offset` rows in. */
export async function listThreadMessages(
  db: Kysely<DB>,
  principal: Principal,
  agentId: string,
  threadId: string,
  query: Static<typeof ChatPageQuerySchema>,
) {
  const thread = await requireThread(db, principal, agentId, threadId);
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readListCursor(query, ['text', 'text']);
  const rows = await listMessages(db, thread.id, { after, offset: query.offset, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.sort_key, row.id]);
  return { items: page.items.map(toMessage), nextCursor: page.nextCursor };
}

const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Opaque to clients: base64url of `last_activity_at|id` of the last thread of a page. */
export function encodeHistoryCursor(thread: Pick<ChatThreadRow, 'last_activity_at' | 'id'>): string {
  return Buffer.from(`${thread.last_activity_at}|${thread.id}`, 'utf8').toString('base64url');
}

export function decodeHistoryCursor(cursor: string): { lastActivityAt: string; id: string } {
  const [lastActivityAt = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const valid =
    /^[A-Za-z0-9_-]+$/.test(cursor) &&
    rest.length === 0 &&
    CURSOR_INSTANT.test(lastActivityAt) &&
    !Number.isNaN(Date.parse(lastActivityAt)) &&
    CURSOR_ID.test(id);
  if (!valid) {
    throw AppError.invalid('Value error, cursor is not a next_cursor this endpoint returned', {
      location: 'query',
      path: ['cursor'],
      rule: 'value_error',
    });
  }
  return { lastActivityAt, id };
}

/** Endpoint 17: the caller's threads, latest activity first, each with its messages. */
export async function getChatHistory(db: Kysely<DB>, principal: Principal, query: Static<typeof ChatHistoryQuerySchema>) {
  const limit = query.limit ?? 10;
  const after = query.cursor !== undefined ? decodeHistoryCursor(query.cursor) : undefined;
  const threads = await listHistory(db, ownerOf(principal), {
    agentId: query.agent_id,
    containing: query.q?.trim() || undefined,
    after,
    limit: limit + 1,
  });
  const page = threads.slice(0, limit);
  const last = page.at(-1)?.thread;
  return {
    items: page.map(({ thread, messages }) => toThread(thread, messages)),
    next_cursor: threads.length > limit && last ? encodeHistoryCursor(last) : null,
  };
}

/**
 * Writes a message a run answers with into its thread and moves the thread to the top of its
 * owner's history, in the caller's transaction (the run's own record is written in it too).
 */
export async function appendThreadMessage(trx: Transaction<DB>, row: ChatMessageTable): Promise<void> {
  await insertMessage(trx, row);
  await touchThread(trx, row.thread_id, row.created_at);
}

/** A message of the thread as the API shows it, or undefined when there is none. */
export async function findThreadMessage(db: Kysely<DB> | Transaction<DB>, threadId: string, messageId: string) {
  const row = await findMessage(db, threadId, messageId);
  return row ? toMessage(row) : undefined;
}

/** The help center whose messenger a visitor's thread came from; null for a user's thread. */
export async function helpCenterOfThread(db: Kysely<DB> | Transaction<DB>, threadId: string): Promise<string | null> {
  return (await findThreadById(db, threadId))?.help_center_id ?? null;
}

/** Every message of the thread, oldest first: the conversation a run of the thread continues. */
export async function listConversationOfThread(db: Kysely<DB>, threadId: string): Promise<ChatMessageRow[]> {
  return listMessagesOfThreads(db, [threadId]);
}
