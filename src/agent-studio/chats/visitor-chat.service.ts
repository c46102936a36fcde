import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import { findLiveAgent } from '../agents/agent.lookup.js';
import { type ChatMessageRow, findMessage, insertMessage, insertThread, touchThread } from './chat.repository.js';
import { shownToVisitor, toVisitorMessage, toVisitorThread } from './visitor-chat.presenter.js';
import {
  findAgentMaker,
  findFeedback,
  findVisitorThread,
  listFeedbackOfThread,
  listLatestVisitorMessages,
  listVisitorThreads,
  upsertFeedback,
  type VisitorOwner,
} from './visitor-chat.repository.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/**
 * A visitor of a help center's messenger, as the messenger vouches for them: their visitor id, the
 * customer contact they proved to be (null while anonymous), and the help center they write from.
 */
export type ChatVisitor = VisitorOwner;

/** The most messages of a conversation the messenger shows: the latest. */
const VISITOR_MESSAGES = 200;
const VISITOR_THREADS = 50;

/** The visitor's conversation; another visitor's, or one of another help center, is a 404. */
export async function requireVisitorThread(db: Kysely<DB> | Transaction<DB>, visitor: ChatVisitor, threadId: string) {
  const thread = await findVisitorThread(db, visitor, threadId);
  if (!thread) {
    throw AppError.notFound('Conversation not found');
  }
  return thread;
}

/** A new conversation of the visitor with the agent (a live agent of the visitor's organization). */
export async function openVisitorThread(deps: Deps, visitor: ChatVisitor, agentId: string) {
  const agent = await findLiveAgent(deps.db, visitor.organizationId, agentId);
  if (!agent) {
    throw AppError.notFound('Agent not found');
  }
  const at = deps.clock.now().toISOString();
  const row = {
    id: deps.ids.uuid(),
    organization_id: agent.organization_id,
    agent_id: agent.id,
    user_id: null,
    anon_user_id: visitor.visitorId,
    contact_id: visitor.contactId,
    help_center_id: visitor.helpCenterId,
    title: null,
    metadata: null,
    last_activity_at: at,
    created_at: at,
    updated_at: at,
  };
  await insertThread(deps.db, row);
  return toVisitorThread(row);
}

/** The visitor's conversations (a verified visitor's from any browser), latest activity first. */
export async function listVisitorConversations(db: Kysely<DB>, visitor: ChatVisitor) {
  return (await listVisitorThreads(db, visitor, VISITOR_THREADS)).map(toVisitorThread);
}

/** The conversation's latest messages as the visitor sees them, oldest first. */
export async function listVisitorMessages(db: Kysely<DB>, visitor: ChatVisitor, threadId: string) {
  const thread = await requireVisitorThread(db, visitor, threadId);
  const rows = await listLatestVisitorMessages(db, thread.id, VISITOR_MESSAGES);
  const ratings = await listFeedbackOfThread(db, thread.id);
  return rows.map((row) => toVisitorMessage(row, ratings.get(row.id) ?? null));
}

/** One message of the visitor's conversation as they see it, or undefined (another's, or a tool's). */
export async function findVisitorMessage(db: Kysely<DB>, visitor: ChatVisitor, threadId: string, messageId: string) {
  const thread = await requireVisitorThread(db, visitor, threadId);
  const row = await findMessage(db, thread.id, messageId);
  return row && shownToVisitor(row) ? toVisitorMessage(row, await findFeedback(db, row.id)) : undefined;
}

/**
 * The visitor's rating of one of the agent's answers in their conversation ("That helped", or
 * not); a later rating replaces the earlier. Anything but an answer of their own conversation is a 404.
 */
export async function rateVisitorAnswer(deps: Deps, visitor: ChatVisitor, threadId: string, messageId: string, helpful: boolean) {
  const thread = await requireVisitorThread(deps.db, visitor, threadId);
  const row = await findMessage(deps.db, thread.id, messageId);
  if (row?.role !== 'assistant') {
    throw AppError.notFound('Answer not found');
  }
  const at = deps.clock.now().toISOString();
  await upsertFeedback(deps.db, { messageId: row.id, organizationId: thread.organization_id, threadId: thread.id, helpful, at });
  return toVisitorMessage(row, helpful);
}

/**
 * The visitor's message, written with what `alongside` writes (the run answering it) in one
 * transaction, the conversation moved to the top. No event: the organization's event log shows
 * a visitor's words once they are a ticket's.
 */
export async function addVisitorMessage(
  deps: Deps,
  visitor: ChatVisitor,
  threadId: string,
  content: string,
  alongside?: (trx: Transaction<DB>, message: ChatMessageRow) => Promise<void>,
) {
  const thread = await requireVisitorThread(deps.db, visitor, threadId);
  const at = deps.clock.now().toISOString();
  const id = deps.ids.uuid();
  return deps.db.transaction().execute(async (trx) => {
    await insertMessage(trx, {
      id,
      organization_id: thread.organization_id,
      thread_id: thread.id,
      sort_key: deps.ids.ulid(),
      role: 'user',
      content,
      content_html: null,
      tool_calls: null,
      attachments: null,
      metadata: null,
      created_at: at,
    });
    await touchThread(trx, thread.id, at);
    const message = await findMessage(trx, thread.id, id);
    if (!message) {
      throw new Error(`message ${id} cannot be read back`);
    }
    await alongside?.(trx, message);
    return { thread: toVisitorThread(thread), message: toVisitorMessage(message) };
  });
}

/**
 * What a person taking the conversation over needs: the agent that answered and the user it acts
 * with (its maker), and the conversation's latest messages as the visitor saw them, oldest first.
 */
export async function visitorTranscript(db: Kysely<DB>, visitor: ChatVisitor, threadId: string) {
  const thread = await requireVisitorThread(db, visitor, threadId);
  const agent = await findAgentMaker(db, thread.agent_id);
  const rows = await listLatestVisitorMessages(db, thread.id, VISITOR_MESSAGES);
  return {
    thread: toVisitorThread(thread),
    agent: { id: agent.id, actingUserId: agent.created_by_id },
    messages: rows.map((row) => toVisitorMessage(row)),
  };
}

/** The conversation moved to the top of the visitor's list: something was said in it elsewhere (its ticket). */
export async function touchVisitorThread(db: Kysely<DB>, visitor: ChatVisitor, threadId: string, at: string): Promise<void> {
  const thread = await requireVisitorThread(db, visitor, threadId);
  await touchThread(db, thread.id, at);
}

/** The visitor's conversation as the messenger shows it; another's is a 404. */
export async function findVisitorConversation(db: Kysely<DB>, visitor: ChatVisitor, threadId: string) {
  return toVisitorThread(await requireVisitorThread(db, visitor, threadId));
}
