import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { readJson, writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { Metrics } from '../../lib/metrics.js';
import type { UploadInput } from '../../lib/upload-input.js';
import { describeAttachments, openOrganizationAttachment, storeUpload } from '../attachments/attachment.service.js';
import type { AttachmentStorage } from '../attachments/attachment.storage.js';
import { findOrCreateContactByEmail } from '../contacts/customer-contact.service.js';
import type { EventActor } from '../events/event.recorder.js';
import { recordActivities } from '../ticket-activities/ticket-activity.recorder.js';
import { type ChatTicketState, findChatTicketState, firstReplyMinutesOfTeam, lockChatTicket } from './chat-ticket.repository.js';
import { startChatTicketVisitor } from './chat-ticket-visitor.service.js';
import { AI_AGENT_AUTHOR, toComment } from './comment.presenter.js';
import { insertCommentOnce, listPublicCommentsOfTicket } from './comment.repository.js';
import type { CommentDeps } from './comment.service.js';
import { contentColumns, deriveCommentContent, systemCommentRow } from './comment-content.js';
import { addCustomerComment } from './comment-inbound.service.js';
import { updateTicket } from './ticket.repository.js';
import { CHAT_SOURCE } from './ticket.table.js';
import { createTicketInTransaction } from './ticket-create.service.js';

/**
 * Tickets of the messenger (source `chat`): a visitor's conversation handed to a person. The
 * messenger (`channels/messenger/`) owns the conversation and calls these; the ticket is an
 * ordinary one from then on (routing, statuses, the console), and its public comments are what the
 * visitor sees.
 */

export { AI_AGENT_AUTHOR, CHAT_SOURCE };

type Deps = Pick<CommentDeps, 'clock' | 'ids' | 'config' | 'secretKey'> & {
  db: Kysely<DB>;
  /** Counts a chat ticket in `tickets_created_total`. */
  metrics?: Pick<Metrics, 'ticketCreated'>;
};

/** One message of the conversation before the handoff, as the ticket keeps it. */
export type TranscriptEntry = { messageId: string; text: string; at: string } & (
  | { by: 'customer' }
  /** An AI agent's answer: the agent, and the user whose permissions it acts with (the agent's maker). */
  | { by: 'agent'; agentId: string; actingUserId: string }
);

/** Marks a transcript comment with the conversation message it copies (`metadata.chatMessageId`). */
const TRANSCRIPT_KEY = 'chatMessageId';

export interface NewChatTicket {
  organizationId: string;
  teamId: string;
  /** Recorded as `created_by_id`: the help center's maker, as a mailbox's maker is for email. */
  createdById: string;
  requestor: { email: string; firstName?: string; lastName?: string | null };
  /** Names the contact's creation when it is new (the messenger). */
  contactCreatedBy: EventActor;
  title: string;
  description: string | null;
  transcript: readonly TranscriptEntry[];
}

/**
 * The chat ticket, in the caller's transaction: the requestor's contact (made if new), the ticket
 * routed as any new ticket (mandatory fields left for the agents, as for email), then the
 * conversation so far as its first public comments, at their own times. Answers the ticket's id
 * and the requestor's contact id.
 */
export async function openChatTicket(trx: Transaction<DB>, deps: Deps, input: NewChatTicket) {
  const { requestor } = input;
  const contact = await findOrCreateContactByEmail(trx, deps, input.organizationId, requestor.email, input.contactCreatedBy, {
    firstName: requestor.firstName,
    lastName: requestor.lastName ?? null,
  });
  const ticketId = await createTicketInTransaction(
    trx,
    deps,
    {
      organizationId: input.organizationId,
      userId: null,
      createdById: input.createdById,
      actor: { type: 'customer_contact', id: contact.id },
      skipMandatoryFields: true,
    },
    {
      title: input.title,
      description: input.description,
      teamId: input.teamId,
      requestorEmail: requestor.email,
      source: CHAT_SOURCE,
    },
  );
  await startChatTicketVisitor(trx, deps, { organizationId: input.organizationId, id: ticketId });
  for (const entry of input.transcript) {
    await insertTranscriptComment(trx, deps, { organizationId: input.organizationId, ticketId, contactId: contact.id }, entry);
  }
  return { ticketId, contactId: contact.id };
}

/**
 * One message of the conversation before the handoff as a public comment, at the time it was
 * written. No event: the ticket's `ticket.created` announces them, and they were never news.
 */
async function insertTranscriptComment(
  trx: Transaction<DB>,
  deps: Deps,
  ticket: { organizationId: string; ticketId: string; contactId: string },
  entry: TranscriptEntry,
): Promise<void> {
  const content = await deriveCommentContent({ content: entry.text });
  const row = systemCommentRow({
    id: deps.ids.ulid(),
    organization_id: ticket.organizationId,
    ticket_id: ticket.ticketId,
    ...contentColumns(content),
    metadata: writeJson({ [TRANSCRIPT_KEY]: entry.messageId }),
    author_id: entry.by === 'agent' ? entry.actingUserId : null,
    author_agent_id: entry.by === 'agent' ? entry.agentId : null,
    customer_contact_id: entry.by === 'customer' ? ticket.contactId : null,
    created_at: entry.at,
  });
  await insertCommentOnce(trx, row);
}

/**
 * A message the visitor writes after the handoff: the requestor's public comment, with what a
 * customer's reply does (a closed ticket reopens, the assignee is told) and `comment.created`.
 * Answers the comment as the API shows it.
 */
export async function addChatMessage(
  trx: Transaction<DB>,
  deps: Deps,
  input: { organizationId: string; ticketId: string; text: string; attachmentIds?: readonly string[] },
) {
  const ticket = await lockChatTicket(trx, input.organizationId, input.ticketId);
  if (!ticket?.customer_contact_id) {
    throw AppError.notFound('Conversation not found');
  }
  const commentId = await addCustomerComment(trx, deps, {
    organizationId: input.organizationId,
    ticket,
    contactId: ticket.customer_contact_id,
    content: await deriveCommentContent({ content: input.text }),
    attachmentIds: input.attachmentIds ?? [],
    sourceEmailId: null,
    isReply: true,
  });
  const [comment] = await listPublicCommentsOfTicket(trx, input.ticketId, { commentId });
  if (!comment) {
    throw new Error(`comment ${commentId} cannot be read back`);
  }
  return toComment(comment);
}

/**
 * The address a chat ticket's requestor is reached at, changed (an anonymous visitor leaving one):
 * the contact of that address (made if new) becomes the requestor, on the timeline as `requestor`.
 */
export async function changeChatRequestor(
  trx: Transaction<DB>,
  deps: Deps,
  input: { organizationId: string; ticketId: string; email: string; actor: EventActor },
): Promise<void> {
  const ticket = await lockChatTicket(trx, input.organizationId, input.ticketId);
  if (!ticket) {
    throw AppError.notFound('Conversation not found');
  }
  if (ticket.requestor_email.toLowerCase() === input.email.toLowerCase()) {
    return;
  }
  const contact = await findOrCreateContactByEmail(trx, deps, input.organizationId, input.email, input.actor);
  await updateTicket(trx, input.organizationId, ticket.id, {
    requestor_email: contact.email,
    customer_contact_id: contact.id,
    updated_at: deps.clock.now().toISOString(),
  });
  const actor = input.actor.type === 'customer_contact' ? input.actor : { type: 'customer_contact' as const, id: contact.id };
  await recordActivities(trx, deps, input.organizationId, ticket.id, actor, [
    { field: 'requestor', oldValue: { email: ticket.requestor_email }, newValue: { email: contact.email } },
  ]);
}

/**
 * What the chat ticket said after the handoff as the visitor sees it (public, not notes, not
 * deleted; the transcript of the conversation before it left out), the latest `limit`, oldest first.
 */
export async function listChatMessages(db: Kysely<DB>, ticketId: string, limit: number) {
  const comments = (await listPublicCommentsOfTicket(db, ticketId, { latest: limit })).map(toComment);
  return comments.filter((comment) => comment.metadata?.[TRANSCRIPT_KEY] === undefined);
}

export type { ChatTicketState };

/** The chat ticket's reference, team and whether it is closed; undefined once deleted. */
export function chatTicketState(db: Kysely<DB>, organizationId: string, ticketId: string) {
  return findChatTicketState(db, organizationId, ticketId);
}

/** How many days of a team's chat tickets its expected wait is taken from. */
const WAIT_SAMPLE_DAYS = 14;
/** The newest chat tickets of those days the median is taken over. */
const WAIT_SAMPLE_TICKETS = 50;

/**
 * The median minutes between a team's recent chat tickets and their first reply by a person,
 * rounded up; null when the team has answered none in the last two weeks.
 */
export async function expectedChatWaitMinutes(
  deps: { db: Kysely<DB>; clock: Clock },
  organizationId: string,
  teamId: string,
): Promise<number | null> {
  const since = new Date(deps.clock.now().getTime() - WAIT_SAMPLE_DAYS * 86_400_000).toISOString();
  const minutes = await firstReplyMinutesOfTeam(
    deps.db,
    { organizationId, teamId, source: CHAT_SOURCE, since },
    WAIT_SAMPLE_TICKETS,
  );
  if (minutes.length === 0) {
    return null;
  }
  const sorted = [...minutes].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return Math.max(1, Math.ceil(median));
}

/**
 * A file of the chat ticket's conversation as its visitor may read it: one on a public comment
 * (never an internal note's); anything else is not found.
 */
export async function openChatTicketFile(
  deps: { db: Kysely<DB>; storage: AttachmentStorage },
  organizationId: string,
  ticketId: string,
  attachmentId: string,
) {
  const comments = await listPublicCommentsOfTicket(deps.db, ticketId, { latest: CHAT_FILES_LOOKED_AT });
  if (!comments.some((comment) => (readJson<string[]>(comment.attachment_ids) ?? []).includes(attachmentId))) {
    throw AppError.notFound('File not found');
  }
  return openOrganizationAttachment(deps, organizationId, attachmentId);
}

/** The latest comments of a chat ticket whose files its visitor may download. */
const CHAT_FILES_LOOKED_AT = 1_000;

/** The name, type and size of a chat ticket's files, by id. */
export function describeChatFiles(db: Kysely<DB>, organizationId: string, ids: readonly string[]) {
  return describeAttachments(db, organizationId, ids);
}

/** A file a chat visitor sends, stored as the organization's attachment (see `storeUpload`). */
export function storeChatUpload(
  deps: Deps & { storage: AttachmentStorage; config: Config },
  owner: { organizationId: string; uploadedById: string },
  upload: UploadInput,
) {
  return storeUpload(deps, owner, upload);
}
