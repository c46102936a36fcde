import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { readBoolean, writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { requireAttachments } from '../attachments/attachment.service.js';
import { findOrCreateContactByEmail } from '../contacts/customer-contact.service.js';
import { flushDeferredEvents, insertRecordingEvent } from '../events/event.recorder.js';
import {
  publicReplyCounts,
  recordPublicReplyForReports,
  type TeamHoursColumns,
  writePendingReports,
} from '../reports/report-aggregates.service.js';
import { recordSlaAgentReply } from '../ticket-sla/ticket-sla.service.js';
import { scheduleChatReplyEmail } from './chat-reply-email.service.js';
import { commentEvent, recordCommentEvent } from './comment.events.js';
import { type Comment, toComment, toCommentOf, toCommentQueuingNothing } from './comment.presenter.js';
import {
  type CommentRow,
  commentInsert,
  findCommentByDedupeKey,
  findCommentById,
  insertCommentOnce,
} from './comment.repository.js';
import type { CreateCommentSchema } from './comment.schemas.js';
import { type CommentContent, contentColumns, deriveCommentContent } from './comment-content.js';
import { applyCommentEffects, commentHasEffects } from './comment-effects.service.js';
import { queueCommentEmail } from './comment-email.js';
import { queueCommentSlackPost, slackThreadOfTicket } from './comment-slack.js';
import type { TicketAccessRow } from './ticket.repository.js';
import { requireTicketAccess } from './ticket.service.js';
import { CHAT_SOURCE, type TicketCommentTable } from './ticket.table.js';

type CreateComment = Static<typeof CreateCommentSchema>;

/** What writing a comment needs; a customer's email comment (`comment-inbound.service.ts`) takes part of it. */
export interface CommentDeps {
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
  deps: CommentDeps,
  principal: Principal,
  ticketIdParam: string | undefined,
  input: CreateComment,
  /**
   * `agent`: an AI agent writes it, with the principal's permissions (see `AgentAuthor`).
   * `alreadyInSlack`: a person wrote it in the ticket's Slack thread, so it is not posted there again.
   */
  options: { agent?: AgentAuthor; alreadyInSlack?: boolean } = {},
) {
  const ticket = await requireTicketAccess(deps.db, principal, ticketIdParam);
  const prepared = { ...(await prepareComment(input)), agent: options.agent };
  const { content, type, visibility } = prepared;
  const agent = options.agent ?? null;
  // A person's public reply counts in the reports' aggregates, with it.
  const reported = visibility === 'public' && !agent;
  const plain =
    !input.parentCommentId &&
    !input.attachmentIds?.length &&
    !prepared.effects &&
    !prepared.sendsEmail &&
    !(visibility === 'public' && slackThreadOfTicket(ticket));
  if (plain) {
    const row = newCommentRow(deps, principal, ticket, input, content, {
      type,
      visibility,
      attachmentIds: [],
      contactId: null,
      agentId: agent?.agentId ?? null,
    });
    // The comment as the API answers it is known before the insert (every column is written), so
    // the insert, its `comment.created` event and a reply's counts in the reports go together: one
    // statement on PostgreSQL, with no transaction held across round trips, where the event's
    // sequence row and the organization's report rows would queue its other writers (see
    // `insertWithEvent`).
    const written = writtenCommentRow(row, ticket, agent);
    const comment: Comment = toComment(written);
    const counts = reported
      ? publicReplyCounts(deps, {
          organizationId: principal.organizationId,
          ticketId: ticket.id,
          teamId: ticket.team_id,
          ticketCreatedAt: ticket.created_at,
          userId: principal.userId,
          firstReplied: readBoolean(ticket.first_replied),
          teamHours: teamHoursOf(ticket),
        })
      : undefined;
    const inserted = await insertRecordingEvent(
      deps.db,
      deps,
      principal.organizationId,
      commentInsert(deps.db, row),
      commentEvent(principal, ticket, 'comment.created', comment, ticket.viewer_name),
      counts,
    );
    if (!inserted) {
      return replayOrConflict(deps.db, principal, await requireDedupeWinner(deps.db, ticket.id, input), input);
    }
    if (visibility === 'public') {
      await recordSlaAgentReply(deps.db, deps, {
        organizationId: principal.organizationId,
        ticketId: ticket.id,
        actor: { type: 'user', id: principal.userId },
        ai: agent !== null,
        hasTargets: readBoolean(ticket.has_sla_targets),
      });
    }
    // The author sees the delivery state of the comment's email; this comment queued none.
    return { comment: toCommentQueuingNothing(principal, written), created: true };
  }
  return deps.db
    .transaction()
    .execute((trx) =>
      addCommentInTransaction(trx, deps, principal, ticket, input, prepared, { alreadyInSlack: options.alreadyInSlack }),
    );
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
  deps: CommentDeps,
  principal: Principal,
  ticket: TicketAccessRow,
  input: CreateComment,
  prepared: PreparedComment,
  /**
   * `eventLater`: the caller changes more afterwards: `comment.created` waits for its `flushDeferredEvents` (see `deferEvent`).
   * `alreadyInSlack`: written in the ticket's Slack thread, so not posted there again.
   */
  options: { eventLater?: boolean; alreadyInSlack?: boolean } = {},
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
  // Written by the principal (or its AI agent), the comment is known as it would be read back;
  // a contact's comment is read back for the contact's names.
  const comment =
    contact === null ? writtenCommentRow(inserted, ticket, prepared.agent) : await findCommentById(trx, ticket.id, inserted.id);
  if (!comment) {
    throw new Error(`comment ${inserted.id} cannot be read back`);
  }
  if (prepared.effects) {
    await applyCommentEffects(trx, deps, principal, comment);
  }
  if (visibility === 'public' && comment.customer_contact_id === null) {
    await recordSlaAgentReply(trx, deps, {
      organizationId: principal.organizationId,
      ticketId: ticket.id,
      actor: { type: 'user', id: principal.userId },
      ai: prepared.agent !== undefined,
      hasTargets: readBoolean(ticket.has_sla_targets),
    });
  }
  if (prepared.sendsEmail) {
    // A chat ticket's replies reach the visitor in the messenger; emailed only if the visitor is away.
    await (ticket.source === CHAT_SOURCE ? scheduleChatReplyEmail : queueCommentEmail)(trx, deps, ticket, comment);
  }
  const postsToSlack =
    !options.alreadyInSlack && (await queueCommentSlackPost(trx, deps, ticket, comment, Boolean(input.contentHtml)));
  // A person's public reply counts in the reports: gathered (its team's hours read) before the
  // event, so that on PostgreSQL the organization's event row is held for the writes alone.
  if (comment.comment_visibility === 'public' && comment.author_id && !comment.author_agent_id && !comment.customer_contact_id) {
    await recordPublicReplyForReports(
      trx,
      deps,
      {
        organizationId: principal.organizationId,
        ticketId: ticket.id,
        teamId: ticket.team_id,
        ticketCreatedAt: ticket.created_at,
        userId: comment.author_id,
      },
      { later: true },
    );
  }
  // Last, after the effects' ticket lock (see `event.recorder.ts`).
  await recordCommentEvent(trx, deps, principal, ticket, 'comment.created', toComment(comment), options.eventLater);
  if (!options.eventLater) {
    // The reports' rows once the event log's lock is held (with `eventLater`, by the caller's
    // change); an AI agent's reply may have met or breached SLA targets: their rows, likewise.
    await writePendingReports(trx);
  }
  // Deliveries are looked up only for what this comment queued.
  const shown =
    prepared.sendsEmail || postsToSlack
      ? await toCommentOf(trx, principal, comment)
      : toCommentQueuingNothing(principal, comment);
  return { comment: shown, created: true };
}

/**
 * A comment as `findCommentById` reads it, from its row as written: the author is the principal
 * (the viewer of `ticket`), or its AI agent, and no contact.
 */
function writtenCommentRow(row: TicketCommentTable, ticket: TicketAccessRow, agent: AgentAuthor | null | undefined): CommentRow {
  // Object.assign, not `{ ...row, … }`: on Node 20 a spread followed by more properties, of
  // objects this wide, ends in V8's old space (about 6 KB a comment), so a process writing
  // comments grew by a hundred MiB between full collections.
  return Object.assign({}, row, {
    author_name: ticket.viewer_name,
    author_user_type: ticket.viewer_user_type as CommentRow['author_user_type'],
    author_avatar_url: ticket.viewer_avatar_url,
    agent_name: agent?.name ?? null,
    agent_avatar_url: agent?.avatarUrl ?? null,
    contact_first_name: null,
    contact_last_name: null,
    contact_email: null,
    contact_avatar_url: null,
  });
}

function teamHoursOf(ticket: TicketAccessRow): TeamHoursColumns | null {
  return ticket.hours_timezone === null
    ? null
    : {
        timezone: ticket.hours_timezone,
        common_daily_config: ticket.hours_common_daily_config,
        common_slots: ticket.hours_common_slots,
        daily_config: ticket.hours_daily_config,
        holidays: ticket.hours_holidays,
      };
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
  deps: CommentDeps,
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
