import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { findSlackPostsByCommentIds, insertSlackPost, type SlackPostStateRow } from './slack-post.repository.js';

/** Where a ticket from Slack lives: its metadata's `slack` (written by the Slack channel). */
export interface SlackThreadOfTicket {
  channelId: string;
  threadTs: string;
}

/** The ticket's Slack thread from its metadata (`{"slack":{"channelId","threadTs"}}`), or null. */
export function slackThreadOf(metadata: Record<string, unknown> | null | undefined): SlackThreadOfTicket | null {
  const slack = metadata?.slack as { channelId?: unknown; threadTs?: unknown } | undefined;
  if (typeof slack?.channelId !== 'string' || typeof slack.threadTs !== 'string' || !slack.channelId || !slack.threadTs) {
    return null;
  }
  return { channelId: slack.channelId, threadTs: slack.threadTs };
}

export interface QueueSlackPost {
  organizationId: string;
  ticketId: string;
  commentId: string;
  thread: SlackThreadOfTicket;
  text: string;
  author: { name: string | null; avatarUrl: string | null };
}

/**
 * Queues a comment's post to its ticket's Slack thread in the caller's transaction, so it exists
 * exactly when the comment does; a comment is posted once (a second call inserts nothing).
 */
export async function queueSlackPost(
  trx: Kysely<DB> | Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory },
  input: QueueSlackPost,
): Promise<void> {
  const at = deps.clock.now().toISOString();
  await insertSlackPost(trx, {
    id: deps.ids.ulid(),
    organization_id: input.organizationId,
    ticket_id: input.ticketId,
    comment_id: input.commentId,
    channel_id: input.thread.channelId,
    thread_ts: input.thread.threadTs,
    text: input.text,
    username: input.author.name,
    icon_url: input.author.avatarUrl,
    status: 'pending',
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  });
}

export type SlackDelivery = ReturnType<typeof toSlackDelivery>;

function toSlackDelivery(row: SlackPostStateRow) {
  return {
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    postedAt: row.posted_at,
    updatedAt: row.updated_at,
  };
}

/** How the Slack posts of these comments are doing, by comment id; a comment with none is absent. */
export async function slackDeliveriesByCommentId(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  commentIds: string[],
): Promise<Map<string, SlackDelivery>> {
  const rows = await findSlackPostsByCommentIds(db, organizationId, commentIds);
  return new Map(rows.map((row) => [row.comment_id, toSlackDelivery(row)]));
}

// The sender's side of the queue, for the Slack channel's worker (a channel reaches no repository).
export {
  type ClaimedSlackPost,
  claimDueSlackPosts,
  failExhaustedSlackPosts,
  finishSlackPost,
} from './slack-post.repository.js';
