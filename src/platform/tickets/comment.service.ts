import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson, writeJson } from '../../db/dialect.js';
import { enqueueTicketEmail } from '../../delivery/outbound/outbound-email.service.js';
import { deliveryOfJoinedOutbox, type EmailDelivery, emailDeliveriesByDedupeKey } from '../../delivery/outbox/outbox.service.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readPageCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import type { EventType } from '../../shared/event-types.js';
import { requireAttachments } from '../attachments/attachment.service.js';
import { ACCESS_DENIED, isOrgAdmin } from '../authorization.js';
import { findOrCreateContactByEmail } from '../contacts/customer-contact.service.js';
import { deferEvent, flushDeferredEvents, insertRecordingEvent, type NewEvent, recordEvent } from '../events/event.recorder.js';
import {
  COMMENT_EMAIL_KEY_PREFIX,
  type CommentRow,
  type CommentWithDeliveryRow,
  commentInsert,
  findCommentByDedupeKey,
  findCommentById,
  insertCommentOnce,
  listCommentThreads,
  listLatestComments,
  THREAD_ORDER,
  updateComment,
} from './comment.repository.js';
import type { CreateCommentSchema, UpdateCommentSchema } from './comment.schemas.js';
import { type CommentContent, deriveCommentContent } from './comment-content.js';
import { applyCommentEffects, commentHasEffects } from './comment-effects.service.js';
import { applyCustomerReply } from './customer-reply.service.js';
import type { TicketAccessRow } from './ticket.repository.js';
import { requireTicketAccess } from './ticket.service.js';
import type { TicketCommentTable } from './ticket.table.js';

type CreateComment = Static<typeof CreateCommentSchema>;
type UpdateComment = Static<typeof UpdateCommentSchema>;

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Config;
  secretKey: Buffer;
}

/**
 * The AI agent (of the agent studio) writing a comment with the permissions of the principal's
 * user: the comment is the agent's (`authorUserType: AI_AGENT`, `authorId` the agent's id).
 */
export interface AgentAuthor {
  agentId: string;
  name: string;
  avatarUrl: string | null;
}

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

export type Comment = ReturnType<typeof toComment> & { emailDelivery?: EmailDelivery | null };

/** The outbox dedupe key of a comment's email: one email per comment, and how to find it again. */
function commentEmailKey(commentId: string): string {
  return `${COMMENT_EMAIL_KEY_PREFIX}${commentId}`;
}

/** Who was emailed and why a delivery failed is for the comment's author and admins to see. */
function seesEmailDelivery(principal: Principal, row: CommentRow): boolean {
  return isOrgAdmin(principal) || (row.author_id !== null && row.author_id === principal.userId);
}

/**
 * The comments in the API shape; for the author and admins with `emailDelivery`, the state of the
 * email the comment queued (null when it queued none). Other users get no `emailDelivery` at all,
 * rather than a null that would read as "no email".
 */
async function toComments(db: Kysely<DB> | Transaction<DB>, principal: Principal, rows: CommentRow[]): Promise<Comment[]> {
  const keys = rows.filter((row) => seesEmailDelivery(principal, row)).map((row) => commentEmailKey(row.id));
  const deliveries = await emailDeliveriesByDedupeKey(db, principal.organizationId, keys);
  return rows.map((row) => {
    const comment: Comment = toComment(row);
    if (seesEmailDelivery(principal, row)) {
      comment.emailDelivery = deliveries.get(commentEmailKey(row.id)) ?? null;
    }
    return comment;
  });
}

/** `toComments` for rows that carry their email's delivery (`listCommentThreads`): no lookup. */
function toCommentsWithDelivery(principal: Principal, rows: CommentWithDeliveryRow[]): Comment[] {
  return rows.map((row) => {
    const comment: Comment = toComment(row);
    if (seesEmailDelivery(principal, row)) {
      comment.emailDelivery = deliveryOfJoinedOutbox(row);
    }
    return comment;
  });
}

export async function toCommentOf(db: Kysely<DB> | Transaction<DB>, principal: Principal, row: CommentRow): Promise<Comment> {
  const [comment] = await toComments(db, principal, [row]);
  if (!comment) {
    throw new Error(`comment ${row.id} was not mapped`);
  }
  return comment;
}

/** JSON with object keys sorted at every level, so equal bodies serialise equally. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(canonical);
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, canonical(record[key])]),
    );
  }
  return value;
}

/**
 * Same key, same request: a replay. The fingerprint covers every field the client sent, with the
 * defaults applied, so `{content}` and `{content, shouldSendEmail: false}` are the same request.
 */
function fingerprint(input: CreateComment): string {
  const { type, visibility } = commentKind(input);
  const normalised = {
    ...input,
    shouldSendEmail: input.shouldSendEmail ?? false,
    commentType: type,
    commentVisibility: visibility,
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(normalised)))
    .digest('hex');
}

async function replayOrConflict(
  trx: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  existing: CommentRow,
  input: CreateComment,
): Promise<{ comment: Comment; created: false }> {
  if (existing.dedupe_fingerprint !== fingerprint(input)) {
    throw AppError.conflict(
      `deDuplicationKey "${input.deDuplicationKey}" was already used for a different comment on this ticket`,
    );
  }
  return { comment: await toCommentOf(trx, principal, existing), created: false };
}

/** Threads are one level deep, and a public reply may not sit under a private comment. */
async function checkParent(trx: Transaction<DB>, ticket: TicketAccessRow, parentId: string, visibility: 'public' | 'private') {
  const parent = await findCommentById(trx, ticket.id, parentId);
  if (!parent) {
    throw AppError.invalid('parentCommentId does not name a comment of this ticket', {
      location: 'body',
      path: ['parentCommentId'],
      rule: 'reference',
    });
  }
  if (parent.parent_comment_id) {
    throw AppError.invalid('parentCommentId must name a top-level comment: replies nest one level', {
      location: 'body',
      path: ['parentCommentId'],
      rule: 'reference',
    });
  }
  if (parent.comment_visibility === 'private' && visibility === 'public') {
    throw AppError.invalid('A public reply cannot be posted under a private comment', {
      location: 'body',
      path: ['commentVisibility'],
      rule: 'visibility',
    });
  }
}

function commentKind(input: CreateComment): {
  type: TicketCommentTable['comment_type'];
  visibility: TicketCommentTable['comment_visibility'];
} {
  const type = input.commentType ?? (input.parentCommentId ? 'reply' : 'comment');
  if (type === 'reply' && !input.parentCommentId) {
    throw AppError.invalid('commentType reply needs a parentCommentId', {
      location: 'body',
      path: ['commentType'],
      rule: 'reference',
    });
  }
  return { type, visibility: input.commentVisibility ?? (type === 'note' ? 'private' : 'public') };
}

/**
 * Adds a comment. With a `deDuplicationKey` the database's unique (ticket, key) constraint decides
 * which of several identical requests creates it; the others read it back (`created: false`).
 *
 * The ticket is looked up and the content derived before anything is written. A comment that
 * writes nothing else is one INSERT … RETURNING, atomic on its own: no transaction, so on
 * PostgreSQL no connection sits idle in one while Node works. A reply, attachments, a comment on a
 * contact's behalf or a queued email go through a transaction, so the email exists exactly when the
 * comment does.
 */
export async function addComment(
  deps: Deps,
  principal: Principal,
  ticketIdParam: string | undefined,
  input: CreateComment,
  /** `agent`: an AI agent writes it, with the principal's permissions (see `AgentAuthor`). */
  options: { agent?: AgentAuthor } = {},
) {
  const ticket = await requireTicketAccess(deps.db, principal, ticketIdParam);
  const prepared = { ...(await prepareComment(input)), agent: options.agent };
  const { content, type, visibility } = prepared;
  const agent = options.agent ?? null;
  const plain = !input.parentCommentId && !input.attachmentIds?.length && !prepared.effects && !prepared.sendsEmail;
  if (plain) {
    const row = newCommentRow(deps, principal, ticket, input, content, {
      type,
      visibility,
      attachmentIds: [],
      contactId: null,
      agentId: agent?.agentId ?? null,
    });
    // The comment as the API answers it is known before the insert (every column is written), so
    // the insert and its `comment.created` event go together: one statement on PostgreSQL, with no
    // transaction held across round trips, where the event's sequence row would queue the
    // organization's other writers (see `insertWithEvent`).
    // Object.assign, not `{ ...row, … }`: on Node 20 a spread followed by more properties, of
    // objects this wide, ends in V8's old space (about 6 KB a comment), so a process writing
    // comments grew by a hundred MiB between full collections.
    const comment: Comment = toComment(
      Object.assign({}, row, {
        author_name: ticket.viewer_name,
        author_user_type: ticket.viewer_user_type as CommentRow['author_user_type'],
        author_avatar_url: ticket.viewer_avatar_url,
        agent_name: agent?.name ?? null,
        agent_avatar_url: agent?.avatarUrl ?? null,
        contact_first_name: null,
        contact_last_name: null,
        contact_email: null,
        contact_avatar_url: null,
      }),
    );
    const written = await insertRecordingEvent(
      deps.db,
      deps,
      principal.organizationId,
      commentInsert(deps.db, row),
      commentEvent(principal, ticket, 'comment.created', comment, ticket.viewer_name),
    );
    if (!written) {
      return replayOrConflict(deps.db, principal, await requireDedupeWinner(deps.db, ticket.id, input), input);
    }
    // The author sees the delivery state of the comment's email; this comment queued none.
    comment.emailDelivery = null;
    return { comment, created: true };
  }
  return deps.db.transaction().execute((trx) => addCommentInTransaction(trx, deps, principal, ticket, input, prepared));
}

/** A comment request's content and kind, derived before anything is read or written (a bad body writes nothing). */
export interface PreparedComment {
  content: CommentContent;
  type: TicketCommentTable['comment_type'];
  visibility: TicketCommentTable['comment_visibility'];
  sendsEmail: boolean;
  /** Whether writing it reopens the ticket or notifies someone (`comment-effects.service.ts`). */
  effects: boolean;
  /** Set when an AI agent writes it. */
  agent?: AgentAuthor;
}

export async function prepareComment(input: CreateComment): Promise<PreparedComment> {
  const content = await deriveCommentContent(input);
  const { type, visibility } = commentKind(input);
  const effects = commentHasEffects({
    customerEmail: input.customerEmail,
    content: content.content,
    visibility,
    metadata: input.metadata,
  });
  return { content, type, visibility, sendsEmail: Boolean(input.shouldSendEmail) && visibility === 'public', effects };
}

/**
 * The transactional path of `addComment` (dedupe, thread, attachments, contact, queued email) in
 * the caller's transaction, so that a macro's reply and its changes to the ticket commit together.
 * `ticket` is the caller's `requireTicketAccess`; `prepared` is `prepareComment(input)`.
 */
export async function addCommentInTransaction(
  trx: Transaction<DB>,
  deps: Deps,
  principal: Principal,
  ticket: TicketAccessRow,
  input: CreateComment,
  prepared: PreparedComment,
  /** The caller changes more afterwards: `comment.created` waits for its `flushDeferredEvents` (see `deferEvent`). */
  options: { eventLater?: boolean } = {},
): Promise<{ comment: Comment; created: boolean }> {
  const { content, type, visibility } = prepared;
  const key = input.deDuplicationKey;
  if (key) {
    const existing = await findCommentByDedupeKey(trx, ticket.id, key);
    if (existing) {
      return replayOrConflict(trx, principal, existing, input);
    }
  }
  if (input.parentCommentId) {
    await checkParent(trx, ticket, input.parentCommentId, visibility);
  }
  const attachments = await requireAttachments(trx, principal.organizationId, input.attachmentIds ?? []);
  const contact = input.customerEmail
    ? await findOrCreateContactByEmail(trx, deps, principal.organizationId, input.customerEmail, {
        type: 'user',
        id: principal.userId,
      })
    : null;
  const row = newCommentRow(deps, principal, ticket, input, content, {
    type,
    visibility,
    attachmentIds: attachments.map((attachment) => attachment.id),
    contactId: contact?.id ?? null,
    agentId: prepared.agent?.agentId ?? null,
  });
  const inserted = await insertCommentOnce(trx, row);
  if (!inserted) {
    // The contact made above (if new) commits all the same, so its event does too.
    await flushDeferredEvents(trx, deps, principal.organizationId);
    return replayOrConflict(trx, principal, await requireDedupeWinner(trx, ticket.id, input), input);
  }
  const comment = await findCommentById(trx, ticket.id, inserted.id);
  if (!comment) {
    throw new Error(`comment ${inserted.id} cannot be read back`);
  }
  if (prepared.effects) {
    await applyCommentEffects(trx, deps, principal, comment);
  }
  if (prepared.sendsEmail) {
    await queueCommentEmail(trx, deps, ticket, comment);
  }
  // Last, after the effects' ticket lock (see `event.recorder.ts`).
  await recordCommentEvent(trx, deps, principal, ticket, 'comment.created', toComment(comment), options.eventLater);
  return { comment: await toCommentOf(trx, principal, comment), created: true };
}

/**
 * `comment.created` or `comment.updated` with the comment as the API answers it, less the
 * author's own `emailDelivery`; an internal comment is marked so readers can keep it from
 * those who may not see it. A comment on a contact's behalf is the contact's.
 */
async function recordCommentEvent(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'clock'>,
  principal: Principal,
  ticket: Pick<TicketAccessRow, 'id' | 'team_id' | 'is_private'>,
  type: Extract<EventType, `comment.${string}`>,
  comment: Comment,
  later = false,
): Promise<void> {
  const event = commentEvent(principal, ticket, type, comment);
  if (later) {
    deferEvent(trx, principal.organizationId, event);
  } else {
    await recordEvent(trx, deps, principal.organizationId, event);
  }
}

function commentEvent(
  principal: Principal,
  ticket: Pick<TicketAccessRow, 'id' | 'team_id' | 'is_private'>,
  type: Extract<EventType, `comment.${string}`>,
  comment: Comment,
  /** The principal's name when at hand; null looks it up. */
  principalName: string | null = null,
): NewEvent & { actor: { name: string | null } } {
  const { emailDelivery: _, ...data } = comment;
  const byContact = comment.authorUserType === 'CUSTOMER' && comment.customerContactId !== null;
  // An agent's comment is the agent's (`data` says so), but the actor is the user it acted for.
  const byAgent = comment.authorUserType === AI_AGENT_AUTHOR;
  return {
    type,
    // The author's name is at hand: no lookup (the plain comment stays at one read and one write).
    actor: byContact
      ? { type: 'customer_contact', id: comment.customerContactId, name: comment.author }
      : { type: 'user', id: principal.userId, name: byAgent ? principalName : comment.author },
    data,
    ticket: { id: ticket.id, teamId: ticket.team_id, isPrivate: readBoolean(ticket.is_private) },
    internal: comment.commentVisibility === 'private',
  };
}

/** A customer's email stored as a comment of its ticket (see `addInboundEmailComment`). */
export interface InboundEmailComment {
  organizationId: string;
  ticket: Pick<TicketAccessRow, 'id' | 'team_id' | 'is_private'>;
  contactId: string;
  content: CommentContent;
  attachmentIds: readonly string[];
  /** The `email_messages` row it came from. */
  sourceEmailId: string;
  /** A reply reopens a closed ticket and tells the assignee; the first message of a new ticket does neither. */
  isReply: boolean;
}

/**
 * A public comment by the customer contact who wrote an email, in the caller's transaction: for a
 * reply with the effects of a customer's reply (`applyCustomerReply`), then `comment.created`
 * (last, after the reopen's ticket lock), as a comment the API relays for a contact. Answers its id.
 */
export async function addInboundEmailComment(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'clock' | 'ids' | 'config' | 'secretKey'>,
  input: InboundEmailComment,
): Promise<string> {
  const at = deps.clock.now().toISOString();
  const row: TicketCommentTable = {
    id: deps.ids.ulid(),
    organization_id: input.organizationId,
    ticket_id: input.ticket.id,
    parent_comment_id: null,
    ...contentColumns(input.content),
    thread_name: null,
    comment_visibility: 'public',
    comment_type: 'comment',
    is_edited: false,
    is_pinned: false,
    source_email_id: input.sourceEmailId,
    metadata: null,
    author_id: null,
    author_agent_id: null,
    customer_contact_id: input.contactId,
    impersonated_user_email: null,
    impersonated_user_name: null,
    impersonated_user_avatar: null,
    attachment_ids: JSON.stringify(input.attachmentIds),
    dedupe_key: null,
    dedupe_fingerprint: null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  };
  await insertCommentOnce(trx, row);
  const stored = await findCommentById(trx, input.ticket.id, row.id);
  if (!stored) {
    throw new Error(`comment ${row.id} cannot be read back`);
  }
  const { emailDelivery: _, ...comment } = toComment(stored) as Comment;
  if (input.isReply) {
    await applyCustomerReply(trx, deps, {
      organizationId: input.organizationId,
      ticketId: input.ticket.id,
      commentId: row.id,
      text: row.content,
      contactId: input.contactId,
      customerName: comment.author || comment.customerContactEmail || 'The customer',
      relayedByUserId: null,
    });
  }
  await recordEvent(trx, deps, input.organizationId, {
    type: 'comment.created',
    actor: { type: 'customer_contact', id: input.contactId, name: comment.author },
    data: comment,
    ticket: { id: input.ticket.id, teamId: input.ticket.team_id, isPrivate: readBoolean(input.ticket.is_private) },
    internal: false,
  });
  return row.id;
}

/** The comment that holds a request's `deDuplicationKey`, after this request's insert lost to it. */
async function requireDedupeWinner(
  db: Kysely<DB> | Transaction<DB>,
  ticketId: string,
  input: CreateComment,
): Promise<CommentRow> {
  const key = input.deDuplicationKey ?? '';
  const winner = await findCommentByDedupeKey(db, ticketId, key);
  if (!winner) {
    throw new Error(`comment with key ${key} lost its insert but cannot be read`);
  }
  return winner;
}

function newCommentRow(
  deps: Deps,
  principal: Principal,
  ticket: TicketAccessRow,
  input: CreateComment,
  content: CommentContent,
  kind: {
    type: TicketCommentTable['comment_type'];
    visibility: TicketCommentTable['comment_visibility'];
    attachmentIds: string[];
    contactId: string | null;
    agentId: string | null;
  },
): TicketCommentTable {
  const at = deps.clock.now().toISOString();
  const key = input.deDuplicationKey;
  return {
    id: deps.ids.ulid(),
    organization_id: principal.organizationId,
    ticket_id: ticket.id,
    parent_comment_id: input.parentCommentId ?? null,
    ...contentColumns(content),
    thread_name: input.threadName ?? null,
    comment_visibility: kind.visibility,
    comment_type: kind.type,
    is_edited: false,
    is_pinned: false,
    source_email_id: null,
    metadata: writeJson(input.metadata),
    author_id: kind.contactId ? null : principal.userId,
    author_agent_id: kind.contactId ? null : kind.agentId,
    customer_contact_id: kind.contactId,
    impersonated_user_email: input.impersonatedUserEmail ?? null,
    impersonated_user_name: input.impersonatedUserName ?? null,
    impersonated_user_avatar: input.impersonatedUserAvatar ?? null,
    attachment_ids: JSON.stringify(kind.attachmentIds),
    dedupe_key: key ?? null,
    dedupe_fingerprint: key ? fingerprint(input) : null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  };
}

function contentColumns(content: CommentContent) {
  return {
    content: content.content,
    content_html: content.contentHtml,
    content_markdown: content.contentMarkdown,
    content_json: content.contentJson,
  };
}

/** A public comment to the requestor: the customer's thread of the ticket, in text and sanitised HTML. */
async function queueCommentEmail(trx: Transaction<DB>, deps: Deps, ticket: TicketAccessRow, comment: CommentRow): Promise<void> {
  const author = toComment(comment).author ?? 'Support';
  await enqueueTicketEmail(trx, deps, {
    organizationId: ticket.organization_id,
    ticket: { id: ticket.id, identifier: ticket.ticket_identifier, teamId: ticket.team_id },
    commentId: comment.id,
    audience: { kind: 'customer' },
    dedupeKey: commentEmailKey(comment.id),
    to: ticket.requestor_email,
    subject: ticket.title,
    text: `${comment.content}\n\n— ${author}\nTicket ${ticket.ticket_identifier}`,
    html: `${comment.content_html}<p>— ${escapeHtml(author)}<br>Ticket ${escapeHtml(ticket.ticket_identifier)}</p>`,
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
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
  return { items: toCommentsWithDelivery(principal, threads), nextCursor: page.nextCursor };
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
