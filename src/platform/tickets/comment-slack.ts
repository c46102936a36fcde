import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import { queueSlackPost, type SlackThreadOfTicket, slackThreadOf } from '../../delivery/slack-posts/slack-post.service.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { toComment } from './comment.presenter.js';
import type { CommentRow } from './comment.repository.js';
import type { TicketAccessRow } from './ticket.repository.js';

/** Tickets the Slack channel made (`source`), whose metadata keeps their thread. */
export const SLACK_SOURCE = 'slack';

/** The Slack thread a ticket from Slack lives in, or null (any other ticket). */
export function slackThreadOfTicket(ticket: Pick<TicketAccessRow, 'source' | 'metadata'>): SlackThreadOfTicket | null {
  if (ticket.source !== SLACK_SOURCE) {
    return null;
  }
  return slackThreadOf(readJson<Record<string, unknown>>(ticket.metadata));
}

/**
 * A public comment by a person or an AI agent on a ticket from Slack is posted in its thread,
 * under its author's name and picture; internal notes and the customer's own comments never are.
 * Answers whether it queued a post.
 */
export async function queueCommentSlackPost(
  trx: Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory },
  ticket: Pick<TicketAccessRow, 'id' | 'organization_id' | 'source' | 'metadata'>,
  comment: CommentRow,
  /** Written as HTML (the console's editor): posted from its Markdown; else its text as written. */
  writtenAsHtml: boolean,
): Promise<boolean> {
  const thread = slackThreadOfTicket(ticket);
  if (!thread || comment.comment_visibility !== 'public' || comment.customer_contact_id !== null) {
    return false;
  }
  const shown = toComment(comment);
  await queueSlackPost(trx, deps, {
    organizationId: ticket.organization_id,
    ticketId: ticket.id,
    commentId: comment.id,
    thread,
    text: writtenAsHtml && comment.content_markdown ? comment.content_markdown : comment.content,
    author: { name: shown.author, avatarUrl: shown.authorAvatarUrl },
  });
  return true;
}
