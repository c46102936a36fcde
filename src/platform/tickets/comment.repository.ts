import { type CompiledQuery, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import { prepareQuery, prepareQueryByShape } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { afterKeys } from '../../db/keyset.js';
import { JOINED_OUTBOX_COLUMNS } from '../../delivery/outbox/outbox.repository.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { TicketCommentTable } from './ticket.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const COMMENT_COLUMNS = [
  'id',
  'organization_id',
  'ticket_id',
  'parent_comment_id',
  'content',
  'content_html',
  'content_markdown',
  'content_json',
  'thread_name',
  'comment_visibility',
  'comment_type',
  'is_edited',
  'is_pinned',
  'source_email_id',
  'metadata',
  'author_id',
  'author_agent_id',
  'customer_contact_id',
  'impersonated_user_email',
  'impersonated_user_name',
  'impersonated_user_avatar',
  'attachment_ids',
  'dedupe_key',
  'dedupe_fingerprint',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies readonly (keyof TicketCommentTable)[];

/** The insert of a comment unless its ticket has one with its `dedupe_key`. */
function insertCommentOnceQuery(db: Db, param: <K extends keyof TicketCommentTable & string>(name: K) => TicketCommentTable[K]) {
  return db
    .insertInto('ticket_comments')
    .values(Object.fromEntries(COMMENT_COLUMNS.map((column) => [column, param(column)])) as unknown as TicketCommentTable)
    .onConflict((oc) => oc.columns(['ticket_id', 'dedupe_key']).doNothing());
}

const insertCommentStatement = prepareQuery<TicketCommentTable, TicketCommentTable>((db: Db, param) =>
  insertCommentOnceQuery(db, param).returning(COMMENT_COLUMNS),
);

/**
 * Inserts unless the ticket already has a comment with the same `dedupe_key`: the row as stored,
 * or undefined when another request's comment holds the key. One compiled statement.
 */
export async function insertCommentOnce(db: Db, row: TicketCommentTable): Promise<TicketCommentTable | undefined> {
  const { rows } = await insertCommentStatement.execute(db, row);
  return rows[0];
}

// The writer of a comment known as written needs only to hear whether its insert wrote: the id
// alone comes back (the whole row was most of what PostgreSQL sent, and the driver parsed, a comment).
const insertCommentAnsweringIdStatement = prepareQuery<TicketCommentTable, { id: string }>((db: Db, param) =>
  insertCommentOnceQuery(db, param).returning('id'),
);

/** `insertCommentOnce` as a compiled statement answering the id, for a writer that runs it with more (its event). */
export function commentInsert(db: Db, row: TicketCommentTable): CompiledQuery<{ id: string }> {
  return insertCommentAnsweringIdStatement.compile(db, row);
}

export async function updateComment(db: Db, commentId: string, changes: Updateable<TicketCommentTable>): Promise<void> {
  await db.updateTable('ticket_comments').set(changes).where('id', '=', commentId).execute();
}

function selectComments(db: Db) {
  return db
    .selectFrom('ticket_comments')
    .leftJoin('users as author', 'author.id', 'ticket_comments.author_id')
    .leftJoin('customer_contacts as contact', 'contact.id', 'ticket_comments.customer_contact_id')
    .leftJoin('agents as agent', 'agent.id', 'ticket_comments.author_agent_id')
    .selectAll('ticket_comments')
    .select([
      'author.name as author_name',
      'author.user_type as author_user_type',
      'author.avatar_url as author_avatar_url',
      'agent.name as agent_name',
      'agent.avatar_url as agent_avatar_url',
      'contact.first_name as contact_first_name',
      'contact.last_name as contact_last_name',
      'contact.email as contact_email',
      'contact.avatar_url as contact_avatar_url',
    ]);
}

export type CommentRow = Awaited<ReturnType<ReturnType<typeof selectComments>['executeTakeFirstOrThrow']>>;

/** The outbox dedupe key of a comment's email is this and the comment's id: one email per comment, found again by it. */
export const COMMENT_EMAIL_KEY_PREFIX = 'comment:';

/**
 * `selectComments` with the state of the email each comment queued (its outbox row, by the unique
 * `dedupe_key`), null when it queued none: a page reads its deliveries in the same statement.
 */
function selectCommentsWithDelivery(db: Db) {
  return selectComments(db)
    .leftJoin('email_outbox as outbox', (join) =>
      join
        .on('outbox.dedupe_key', '=', sql<string>`${sql.lit(COMMENT_EMAIL_KEY_PREFIX)} || ${sql.ref('ticket_comments.id')}`)
        .onRef('outbox.organization_id', '=', 'ticket_comments.organization_id'),
    )
    .select(JOINED_OUTBOX_COLUMNS);
}

export type CommentWithDeliveryRow = Awaited<
  ReturnType<ReturnType<typeof selectCommentsWithDelivery>['executeTakeFirstOrThrow']>
>;

export async function findCommentById(db: Db, ticketId: string, commentId: string, options: { includeDeleted?: boolean } = {}) {
  let query = selectComments(db).where('ticket_comments.ticket_id', '=', ticketId).where('ticket_comments.id', '=', commentId);
  if (!options.includeDeleted) {
    query = query.where('ticket_comments.deleted_at', 'is', null);
  }
  return query.executeTakeFirst();
}

export async function findCommentByDedupeKey(db: Db, ticketId: string, key: string) {
  return selectComments(db)
    .where('ticket_comments.ticket_id', '=', ticketId)
    .where('ticket_comments.dedupe_key', '=', key)
    .executeTakeFirst();
}

/** The order of a ticket's threads, oldest first, and the keys a cursor holds. */
export const THREAD_ORDER = ['ticket_comments.created_at', 'ticket_comments.id'] as const;

/** The ids of one page of a ticket's live top-level comments, from the `ticket_comments_live_threads` index alone. */
export function threadRootIds(db: Db, ticketId: string, page: { limit: number; offset?: number; after?: readonly CursorKey[] }) {
  let query = db
    .selectFrom('ticket_comments')
    .select('ticket_comments.id')
    .where('ticket_comments.ticket_id', '=', ticketId)
    .where('ticket_comments.parent_comment_id', 'is', null)
    .where('ticket_comments.deleted_at', 'is', null);
  if (page.after) {
    query = query.where(afterKeys(THREAD_ORDER, page.after, 'asc'));
  }
  // The page size is written into the statement: PostgreSQL's generic plan of a bound LIMIT
  // guesses a tenth of the table and would join every comment (see `ticketPageIds`).
  query = query.orderBy('ticket_comments.created_at').orderBy('ticket_comments.id').limit(sql.lit(page.limit));
  return page.offset === undefined ? query : query.offset(page.offset);
}

interface ThreadPageParams {
  ticketId: string;
  variant: 'first' | 'offset' | 'after';
  offset: number;
  afterTime: string;
  afterId: string;
  limit: number;
}

/**
 * One page of threads in one statement: the page's top-level comments (their ids from the
 * `ticket_comments_live_threads` index, by offset or after a cursor, then joined), and the replies
 * of those (the `parent_comment_id` index), each row saying which it is and carrying its email's
 * delivery. Compiled once per way of paging and page size.
 */
const threadPageStatement = prepareQueryByShape<ThreadPageParams, CommentWithDeliveryRow & { is_reply: number }>(
  (params) => `${params.variant}:${params.limit}`,
  (db, param, shape) => {
    const pageIds = () =>
      threadRootIds(db, param('ticketId'), {
        limit: shape.limit,
        offset: shape.variant === 'offset' ? param('offset') : undefined,
        after: shape.variant === 'after' ? [param('afterTime'), param('afterId')] : undefined,
      }).as('page');
    const roots = selectCommentsWithDelivery(db)
      .innerJoin(pageIds(), 'page.id', 'ticket_comments.id')
      .select(sql<number>`0`.as('is_reply'));
    const replies = selectCommentsWithDelivery(db)
      .where('ticket_comments.parent_comment_id', 'in', (eb) => eb.selectFrom(pageIds()).select('page.id'))
      .where('ticket_comments.deleted_at', 'is', null)
      .select(sql<number>`1`.as('is_reply'));
    return roots.unionAll(replies);
  },
);

const inThreadOrder = (a: CommentRow, b: CommentRow) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** One page of a ticket's threads: its top-level comments in order, and their replies in order, with their emails' deliveries. */
export async function listCommentThreads(
  db: Db,
  ticketId: string,
  page: { limit: number; offset?: number; after?: readonly CursorKey[] },
) {
  const [afterTime = '', afterId = ''] = (page.after ?? []) as string[];
  const { rows } = await threadPageStatement.execute(db, {
    ticketId,
    variant: page.after ? 'after' : page.offset ? 'offset' : 'first',
    offset: page.offset ?? 0,
    afterTime,
    afterId,
    limit: page.limit,
  });
  const roots: CommentWithDeliveryRow[] = [];
  const replies: CommentWithDeliveryRow[] = [];
  // Rows keep their `is_reply`: copying rows this wide to drop it cost more than it is worth.
  for (const row of rows.sort(inThreadOrder)) {
    (Number(row.is_reply) === 1 ? replies : roots).push(row);
  }
  return { roots, replies };
}

/**
 * A ticket's latest live comments, newest first (the `ticket_comments_ticket_created` index);
 * private ones only when `includePrivate`.
 */
export async function listLatestComments(db: Db, ticketId: string, options: { limit: number; includePrivate: boolean }) {
  let query = selectComments(db)
    .where('ticket_comments.ticket_id', '=', ticketId)
    .where('ticket_comments.deleted_at', 'is', null);
  if (!options.includePrivate) {
    query = query.where('ticket_comments.comment_visibility', '=', 'public');
  }
  return query.orderBy('ticket_comments.created_at', 'desc').orderBy('ticket_comments.id', 'desc').limit(options.limit).execute();
}

/**
 * A ticket's comments its customer sees (public, not internal notes, not deleted), oldest first:
 * one comment by id, or the latest `latest`.
 */
export async function listPublicCommentsOfTicket(
  db: Db,
  ticketId: string,
  which: { commentId: string } | { latest: number },
): Promise<CommentRow[]> {
  let query = selectComments(db)
    .where('ticket_comments.ticket_id', '=', ticketId)
    .where('ticket_comments.deleted_at', 'is', null)
    .where('ticket_comments.comment_visibility', '=', 'public')
    .where('ticket_comments.comment_type', '!=', 'note');
  if ('commentId' in which) {
    query = query.where('ticket_comments.id', '=', which.commentId);
  } else {
    const latest = await query
      .orderBy('ticket_comments.created_at', 'desc')
      .orderBy('ticket_comments.id', 'desc')
      .limit(which.latest)
      .execute();
    return latest.reverse();
  }
  return query.execute();
}
