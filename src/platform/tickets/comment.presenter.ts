import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import { deliveryOfJoinedOutbox, type EmailDelivery } from '../../delivery/outbox/outbox.presenter.js';
import { emailDeliveriesByDedupeKey } from '../../delivery/outbox/outbox.service.js';
import { type SlackDelivery, slackDeliveriesByCommentId } from '../../delivery/slack-posts/slack-post.service.js';
import type { Principal } from '../../lib/principal.js';
import { isOrgAdmin } from '../authorization.js';
import { COMMENT_EMAIL_KEY_PREFIX, type CommentRow, type CommentWithDeliveryRow } from './comment.repository.js';

/** The `authorUserType` of a comment an AI agent wrote. */
export const AI_AGENT_AUTHOR = 'AI_AGENT';

/** Who wrote a comment, as the API names them: a customer contact, an AI agent, or a user. */
function authorOf(row: CommentRow) {
  if (row.author_id === null && row.customer_contact_id !== null) {
    const contactName = [row.contact_first_name, row.contact_last_name].filter(Boolean).join(' ') || null;
    return {
      author: contactName,
      authorId: row.customer_contact_id,
      authorUserType: 'CUSTOMER',
      authorAvatarUrl: row.contact_avatar_url,
    };
  }
  if (row.author_agent_id !== null) {
    return {
      author: row.agent_name,
      authorId: row.author_agent_id,
      authorUserType: AI_AGENT_AUTHOR,
      authorAvatarUrl: row.agent_avatar_url,
    };
  }
  return {
    author: row.author_name,
    authorId: row.author_id,
    authorUserType: row.author_user_type,
    authorAvatarUrl: row.author_avatar_url,
  };
}

export function toComment(row: CommentRow) {
  const author = authorOf(row);
  return {
    id: row.id,
    content: row.content,
    contentHtml: row.content_html,
    contentJson: row.content_json,
    contentMarkdown: row.content_markdown,
    isEdited: readBoolean(row.is_edited),
    threadName: row.thread_name,
    commentVisibility: row.comment_visibility,
    commentType: row.comment_type,
    isPinned: readBoolean(row.is_pinned),
    sourceEmailId: row.source_email_id,
    metadata: readJson<Record<string, unknown>>(row.metadata),
    parentCommentId: row.parent_comment_id,
    ticketId: row.ticket_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    author: author.author,
    authorId: author.authorId,
    authorUserType: author.authorUserType as string | null,
    authorAvatarUrl: author.authorAvatarUrl,
    customerContactId: row.customer_contact_id,
    customerContactEmail: row.contact_email,
    customerContactFirstName: row.contact_first_name,
    customerContactLastName: row.contact_last_name,
    customerContactAvatarUrl: row.contact_avatar_url,
    impersonatedUserEmail: row.impersonated_user_email,
    impersonatedUserName: row.impersonated_user_name,
    impersonatedUserAvatar: row.impersonated_user_avatar,
    attachments: readJson<string[]>(row.attachment_ids) ?? [],
  };
}

export type Comment = ReturnType<typeof toComment> & {
  emailDelivery?: EmailDelivery | null;
  slackDelivery?: SlackDelivery | null;
};

/** The outbox dedupe key of a comment's email: one email per comment, and how to find it again. */
export function commentEmailKey(commentId: string): string {
  return `${COMMENT_EMAIL_KEY_PREFIX}${commentId}`;
}

/** Who was emailed and why a delivery failed is for the comment's author and admins to see. */
function seesEmailDelivery(principal: Principal, row: CommentRow): boolean {
  return isOrgAdmin(principal) || (row.author_id !== null && row.author_id === principal.userId);
}

/**
 * The comments in the API shape; for the author and admins with `emailDelivery`, the state of the
 * email the comment queued (null when it queued none), and `slackDelivery`, the state of its post
 * to the ticket's Slack thread (likewise). Other users get neither at all, rather than a null that
 * would read as "nothing sent".
 */
export async function toComments(db: Kysely<DB> | Transaction<DB>, principal: Principal, rows: CommentRow[]): Promise<Comment[]> {
  const keys = rows.filter((row) => seesEmailDelivery(principal, row)).map((row) => commentEmailKey(row.id));
  const deliveries = await emailDeliveriesByDedupeKey(db, principal.organizationId, keys);
  const comments = rows.map((row) => {
    const comment: Comment = toComment(row);
    if (seesEmailDelivery(principal, row)) {
      comment.emailDelivery = deliveries.get(commentEmailKey(row.id)) ?? null;
    }
    return comment;
  });
  return withSlackDelivery(db, principal, rows, comments);
}

/** `toComments` for rows that carry their email's delivery (`listCommentThreads`): no email lookup. */
export async function toCommentsWithDelivery(
  db: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  rows: CommentWithDeliveryRow[],
): Promise<Comment[]> {
  const comments = rows.map((row) => {
    const comment: Comment = toComment(row);
    if (seesEmailDelivery(principal, row)) {
      comment.emailDelivery = deliveryOfJoinedOutbox(row);
    }
    return comment;
  });
  return withSlackDelivery(db, principal, rows, comments);
}

/** Sets `slackDelivery` on the comments (in the order of `rows`) whose delivery the principal sees. */
async function withSlackDelivery(
  db: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  rows: CommentRow[],
  comments: Comment[],
): Promise<Comment[]> {
  const ids = rows.filter((row) => seesEmailDelivery(principal, row)).map((row) => row.id);
  const posts = await slackDeliveriesByCommentId(db, principal.organizationId, ids);
  rows.forEach((row, index) => {
    const comment = comments[index];
    if (comment && seesEmailDelivery(principal, row)) {
      comment.slackDelivery = posts.get(row.id) ?? null;
    }
  });
  return comments;
}

/**
 * `toComments` of a comment just written that queued neither an email nor a Slack post: its
 * deliveries are known to be none, so they are not looked up.
 */
export function toCommentQueuingNothing(principal: Principal, row: CommentRow): Comment {
  const comment: Comment = toComment(row);
  if (seesEmailDelivery(principal, row)) {
    comment.emailDelivery = null;
    comment.slackDelivery = null;
  }
  return comment;
}

export async function toCommentOf(db: Kysely<DB> | Transaction<DB>, principal: Principal, row: CommentRow): Promise<Comment> {
  const [comment] = await toComments(db, principal, [row]);
  if (!comment) {
    throw new Error(`comment ${row.id} was not mapped`);
  }
  return comment;
}
