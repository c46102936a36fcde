import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readPageCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { ACCESS_DENIED, isOrgAdmin } from '../authorization.js';
import { recordCommentEvent } from './comment.events.js';
import { type Comment, toComment, toCommentOf, toComments, toCommentsWithDelivery } from './comment.presenter.js';
import {
  type CommentWithDeliveryRow,
  findCommentById,
  listCommentThreads,
  listLatestComments,
  THREAD_ORDER,
  updateComment,
} from './comment.repository.js';
import type { UpdateCommentSchema } from './comment.schemas.js';
import { contentColumns, deriveCommentContent } from './comment-content.js';
import type { TicketAccessRow } from './ticket.repository.js';
import { requireTicketAccess } from './ticket.service.js';
import type { TicketCommentTable } from './ticket.table.js';

type UpdateComment = Static<typeof UpdateCommentSchema>;

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
}

/** A page of a ticket's threads, each top-level comment followed by its replies, by `page` or `cursor`. */
export async function listComments(
  db: Kysely<DB>,
  principal: Principal,
  ticketIdParam: string,
  query: { page?: number; limit?: number; cursor?: string },
) {
  const after = readPageCursor(query, THREAD_ORDER.length);
  const ticket = await requireTicketAccess(db, principal, ticketIdParam);
  const limit = query.limit ?? 20;
  const { roots, replies } = await listCommentThreads(db, ticket.id, {
    offset: (query.page ?? 0) * limit,
    after,
    limit: limit + 1,
  });
  const page = keysetPage(roots, limit, (root) => [root.created_at, root.id]);
  const repliesOf = new Map<string, CommentWithDeliveryRow[]>();
  for (const reply of replies) {
    const siblings = repliesOf.get(reply.parent_comment_id ?? '');
    if (siblings) {
      siblings.push(reply);
    } else {
      repliesOf.set(reply.parent_comment_id ?? '', [reply]);
    }
  }
  const threads = page.items.flatMap((root) => [root, ...(repliesOf.get(root.id) ?? [])]);
  return { items: await toCommentsWithDelivery(db, principal, threads), nextCursor: page.nextCursor };
}

/**
 * The latest comments of a ticket the caller may see, oldest of them first: what an agent reads
 * to catch up on a conversation without paging through it from the start.
 */
export async function listRecentComments(
  db: Kysely<DB>,
  principal: Principal,
  ticketIdParam: string,
  options: { limit: number; includePrivate: boolean },
): Promise<Comment[]> {
  const ticket = await requireTicketAccess(db, principal, ticketIdParam);
  const rows = options.limit === 0 ? [] : await listLatestComments(db, ticket.id, options);
  return toComments(db, principal, rows.reverse());
}

async function requireOwnComment(
  trx: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  ticket: TicketAccessRow,
  commentId: string,
) {
  const comment = await findCommentById(trx, ticket.id, commentId);
  if (!comment) {
    throw AppError.notFound('Comment not found!');
  }
  if (comment.author_id !== principal.userId && !isOrgAdmin(principal)) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
  return comment;
}

/** Authors (and admins) edit; a change of content marks the comment edited. */
export async function editComment(
  deps: Deps,
  principal: Principal,
  ticketIdParam: string,
  commentId: string,
  input: UpdateComment,
) {
  const ticket = await requireTicketAccess(deps.db, principal, ticketIdParam);
  const comment = await requireOwnComment(deps.db, principal, ticket, commentId);
  const changes: Updateable<TicketCommentTable> = { updated_at: deps.clock.now().toISOString() };
  if (input.content !== undefined || input.contentHtml !== undefined || input.contentJson !== undefined) {
    Object.assign(changes, contentColumns(await deriveCommentContent(input)), { is_edited: true });
  }
  if (input.threadName !== undefined) {
    changes.thread_name = input.threadName;
  }
  if (input.metadata !== undefined) {
    changes.metadata = writeJson(input.metadata);
  }
  if (input.isPinned !== undefined) {
    changes.is_pinned = input.isPinned;
  }
  // The edit and its `comment.updated` event commit together.
  return deps.db.transaction().execute(async (trx) => {
    await updateComment(trx, comment.id, changes);
    const updated = await findCommentById(trx, ticket.id, comment.id);
    if (!updated) {
      throw AppError.notFound('Comment not found!');
    }
    await recordCommentEvent(trx, deps, principal, ticket, 'comment.updated', toComment(updated));
    return toCommentOf(trx, principal, updated);
  });
}

/** Soft delete: the comment, and a deleted thread with its replies, leave every listing. */
export async function deleteComment(deps: Deps, principal: Principal, ticketIdParam: string, commentId: string) {
  const ticket = await requireTicketAccess(deps.db, principal, ticketIdParam);
  const comment = await requireOwnComment(deps.db, principal, ticket, commentId);
  const at = deps.clock.now().toISOString();
  await updateComment(deps.db, comment.id, { deleted_at: at, updated_at: at });
  return { ...(await toCommentOf(deps.db, principal, comment)), deletedAt: at, updatedAt: at };
}
