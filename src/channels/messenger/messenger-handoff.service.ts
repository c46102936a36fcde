import {
  type ChatVisitor,
  findVisitorConversation,
  touchVisitorThread,
  visitorTranscript,
} from '../../agent-studio/chats/visitor-chat.service.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import type { UploadInput } from '../../lib/upload-input.js';
import type { AttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { teamHoursStatus } from '../../platform/team-configurations/team-configuration.service.js';
import {
  AI_AGENT_AUTHOR,
  addChatMessage,
  type ChatTicketState,
  changeChatRequestor,
  chatTicketState,
  describeChatFiles,
  expectedChatWaitMinutes,
  listChatMessages,
  openChatTicket,
  openChatTicketFile,
  storeChatUpload,
  type TranscriptEntry,
} from '../../platform/tickets/chat-ticket.service.js';
import { reportChatVisitorTyping } from '../../platform/tickets/chat-ticket-visitor.service.js';
import {
  findHandoff,
  findHandoffsOf,
  type HandoffRow,
  insertHandoffOnce,
  updateHandoff,
} from './messenger-handoff.repository.js';
import type { Visitor } from './messenger-visitor.service.js';
import type { MessengerHelpCenter } from './messenger-widget.js';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'ids' | 'config' | 'secretKey' | 'metrics'>;

/**
 * A conversation handed to a person: a chat ticket for the widget's handoff team made from it
 * (`platform/tickets/chat-ticket.service.ts`), and from then on the visitor's messages are the
 * ticket's customer comments and the team's public replies are the visitor's to read.
 */

/**
 * The requestor address of an anonymous visitor who left none: in `.invalid`, which no mail system
 * resolves (RFC 6761), so nothing is ever sent to it; it is replaced once the visitor leaves one.
 */
const NO_ADDRESS_DOMAIN = 'messenger.invalid';

function placeholderAddress(visitorId: string): string {
  return `visitor-${visitorId.toLowerCase()}@${NO_ADDRESS_DOMAIN}`;
}

export type Conversation = { id: string; title: string | null; createdAt: string; lastActivityAt: string };

/** What the visitor is told about the person who will reply: see `HandoffSchema`. */
export interface HandoffView {
  requestedAt: string;
  requestedBy: 'visitor' | 'assistant';
  ticket: string;
  teamName: string;
  email: string | null;
  emailRequired: boolean;
  hours: { open: boolean; nextOpeningAt: string | null; expectedWaitMinutes: number | null };
  closed: boolean;
}

/** The team's hours as the visitor is told them, read once per team for a list of conversations. */
type HoursOfTeam = (teamId: string) => Promise<HandoffView['hours']>;

function hoursReader(deps: Deps, organizationId: string): HoursOfTeam {
  const known = new Map<string, Promise<HandoffView['hours']>>();
  return (teamId) => {
    let hours = known.get(teamId);
    if (!hours) {
      hours = (async () => {
        const status = await teamHoursStatus(deps.db, organizationId, teamId, deps.clock.now());
        return {
          open: status.isOpen,
          nextOpeningAt: status.isOpen ? null : status.nextOpeningAt,
          expectedWaitMinutes: status.isOpen ? await expectedChatWaitMinutes(deps, organizationId, teamId) : null,
        };
      })();
      known.set(teamId, hours);
    }
    return hours;
  };
}

function viewOf(handoff: HandoffRow, ticket: ChatTicketState, hours: HandoffView['hours']): HandoffView {
  return {
    requestedAt: handoff.created_at,
    requestedBy: handoff.requested_by,
    ticket: ticket.identifier,
    teamName: ticket.teamName,
    email: handoff.email,
    emailRequired: !hours.open && handoff.email === null,
    hours,
    closed: ticket.closed,
  };
}

/** The conversation with its handoff, or null for it when there is none (or its ticket was deleted). */
export async function withHandoff(
  deps: Deps,
  conversation: Conversation,
  handoff: HandoffRow | undefined,
  hoursOf: HoursOfTeam = hoursReader(deps, handoff?.organization_id ?? ''),
) {
  const ticket = handoff ? await chatTicketState(deps.db, handoff.organization_id, handoff.ticket_id) : undefined;
  return {
    ...conversation,
    handoff: handoff && ticket ? viewOf(handoff, ticket, await hoursOf(ticket.teamId)) : null,
  };
}

export async function withHandoffs(deps: Deps, organizationId: string, conversations: readonly Conversation[]) {
  const handoffs = await findHandoffsOf(
    deps.db,
    conversations.map((conversation) => conversation.id),
  );
  const hoursOf = hoursReader(deps, organizationId);
  return Promise.all(
    conversations.map((conversation) => withHandoff(deps, conversation, handoffs.get(conversation.id), hoursOf)),
  );
}

/** The visitor's conversation (a 404 for anyone else's) and its handoff, if it has one. */
export async function conversationOf(deps: Pick<Deps, 'db'>, chatVisitor: ChatVisitor, conversationId: string) {
  const conversation = await findVisitorConversation(deps.db, chatVisitor, conversationId);
  return { conversation, handoff: await findHandoff(deps.db, conversation.id) };
}

/** The widget's handoff team, or the messenger's 404 when nobody takes conversations over. */
function requireHandoffTeam(helpCenter: MessengerHelpCenter): string {
  const teamId = helpCenter.widget.handoffTeamId;
  if (!teamId) {
    throw AppError.notFound('Talking to a person is not available in this messenger');
  }
  return teamId;
}

const TITLE_MAX = 120;

/** The ticket's title: the visitor's first words, on one line. */
function titleOf(messages: readonly { author: string; content: string }[], visitor: Visitor): string {
  const first = messages
    .find((message) => message.author === 'visitor')
    ?.content.replace(/\s+/g, ' ')
    .trim();
  if (first) {
    return first.length > TITLE_MAX ? `${first.slice(0, TITLE_MAX - 1)}…` : first;
  }
  return `Chat with ${visitor.contact?.name ?? 'a visitor'}`;
}

export interface HandoffRequest {
  /** Where replies go while the visitor is away; a verified visitor's contact address wins. */
  email?: string;
  by: 'visitor' | 'assistant';
  /** The assistant's reason (`handoff_to_human`). */
  reason?: string | null;
}

/**
 * Hands the conversation to a person: the chat ticket for the widget's team, routed, with the
 * conversation so far as its first comments, and the handoff that ties them, in one transaction.
 * A conversation handed off already keeps its ticket (two requests at once make one: the handoff's
 * key is the conversation); an `email` then replaces the address for replies. Answers the
 * conversation with its handoff, and whether this call made it.
 */
export async function handOff(
  deps: Deps,
  helpCenter: MessengerHelpCenter,
  chatVisitor: ChatVisitor & { visitor: Visitor },
  conversationId: string,
  request: HandoffRequest,
) {
  const teamId = requireHandoffTeam(helpCenter);
  const { thread, agent, messages } = await visitorTranscript(deps.db, chatVisitor, conversationId);
  const existing = await findHandoff(deps.db, thread.id);
  if (existing) {
    const updated = request.email ? await leaveEmail(deps, existing, request.email) : existing;
    return { conversation: await withHandoff(deps, thread, updated), created: false };
  }
  const { visitor } = chatVisitor;
  const email = visitor.contact?.email ?? request.email ?? null;
  const at = deps.clock.now().toISOString();
  const transcript: TranscriptEntry[] = messages.map((message) => {
    const copied = { messageId: message.id, text: message.content, at: message.createdAt };
    return message.author === 'visitor'
      ? { ...copied, by: 'customer' }
      : { ...copied, by: 'agent', agentId: agent.id, actingUserId: agent.actingUserId };
  });
  const made = await deps.db
    .transaction()
    .execute(async (trx) => {
      const [firstName, ...rest] = (visitor.contact?.name ?? '').split(' ');
      const { ticketId } = await openChatTicket(trx, deps, {
        organizationId: chatVisitor.organizationId,
        teamId,
        createdById: helpCenter.createdById,
        requestor: email
          ? { email, firstName: firstName || undefined, lastName: rest.join(' ') || null }
          : { email: placeholderAddress(visitor.id), firstName: 'Visitor', lastName: visitor.id.slice(-6) },
        contactCreatedBy: { type: 'system', id: null, name: `Messenger of ${helpCenter.site.name}` },
        title: titleOf(messages, visitor),
        description: request.reason ? `The assistant handed this conversation over: ${request.reason}` : null,
        transcript,
      });
      const row: HandoffRow = {
        thread_id: thread.id,
        organization_id: chatVisitor.organizationId,
        help_center_id: chatVisitor.helpCenterId,
        visitor_id: visitor.id,
        ticket_id: ticketId,
        requested_by: request.by,
        reason: request.reason ?? null,
        email,
        created_at: at,
        updated_at: at,
      };
      // Lost to a concurrent request: everything above is rolled back with this throw.
      if (!(await insertHandoffOnce(trx, row))) {
        throw new HandoffRace();
      }
      return row;
    })
    .catch((error: unknown) => {
      if (error instanceof HandoffRace) {
        return null;
      }
      throw error;
    });
  const handoff = made ?? (await findHandoff(deps.db, thread.id));
  return { conversation: await withHandoff(deps, thread, handoff), created: made !== null };
}

class HandoffRace extends Error {}

/** The address the visitor left for replies while away; an anonymous visitor's becomes the ticket's requestor. */
async function leaveEmail(deps: Deps, handoff: HandoffRow, email: string): Promise<HandoffRow> {
  const at = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await changeChatRequestor(trx, deps, {
      organizationId: handoff.organization_id,
      ticketId: handoff.ticket_id,
      email,
      actor: { type: 'system', id: null, name: 'Messenger visitor' },
    });
    await updateHandoff(trx, handoff.thread_id, { email, updated_at: at });
  });
  return { ...handoff, email, updated_at: at };
}

/** A message of the ticket as the visitor reads it: theirs, the assistant's, or a person's with their name. */
/** A file of a message; the panel downloads it from `…/conversations/{id}/files/{fileId}`. */
export interface VisitorFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
}

export interface VisitorMessage {
  id: string;
  author: 'visitor' | 'assistant' | 'agent';
  /** A person's name; null for the visitor and the assistant. */
  authorName: string | null;
  content: string;
  attachments: VisitorFile[];
  citations: { title: string; url: string }[];
  helpful: boolean | null;
  createdAt: string;
}

export function visitorMessageOfComment(
  comment: {
    id: string;
    content: string;
    author: string | null;
    authorUserType: string | null;
    createdAt: string;
    attachments?: readonly string[];
  },
  files: ReadonlyMap<string, VisitorFile> = new Map(),
): VisitorMessage {
  const author: VisitorMessage['author'] =
    comment.authorUserType === 'CUSTOMER' ? 'visitor' : comment.authorUserType === AI_AGENT_AUTHOR ? 'assistant' : 'agent';
  return {
    id: comment.id,
    author,
    authorName: author === 'agent' ? comment.author : null,
    content: comment.content,
    attachments: (comment.attachments ?? []).flatMap((id) => files.get(id) ?? []),
    citations: [],
    helpful: null,
    createdAt: comment.createdAt,
  };
}

/** The most messages the visitor is shown: the latest. */
const SHOWN_MESSAGES = 200;

/** What the ticket says after the handoff, as the visitor reads it, oldest first. */
export async function messagesSinceHandoff(deps: Pick<Deps, 'db'>, handoff: HandoffRow) {
  const comments = await listChatMessages(deps.db, handoff.ticket_id, SHOWN_MESSAGES);
  const files = await filesOf(deps, handoff.organization_id, comments);
  return comments.map((comment) => visitorMessageOfComment(comment, files));
}

/** The files of some comments of a chat ticket, by id. */
export function filesOf(
  deps: Pick<Deps, 'db'>,
  organizationId: string,
  comments: readonly { attachments?: readonly string[] }[],
) {
  return describeChatFiles(
    deps.db,
    organizationId,
    comments.flatMap((comment) => comment.attachments ?? []),
  );
}

/** The visitor's message after the handoff: the ticket's customer comment (no assistant answers it), with its files. */
export async function sendToPerson(
  deps: Deps,
  chatVisitor: ChatVisitor,
  handoff: HandoffRow,
  message: { content: string; attachmentIds?: readonly string[] },
) {
  const comment = await deps.db.transaction().execute((trx) =>
    addChatMessage(trx, deps, {
      organizationId: handoff.organization_id,
      ticketId: handoff.ticket_id,
      text: message.content,
      attachmentIds: message.attachmentIds,
    }),
  );
  await touchVisitorThread(deps.db, chatVisitor, handoff.thread_id, comment.createdAt);
  return visitorMessageOfComment(comment, await filesOf(deps, handoff.organization_id, [comment]));
}

/** Keeps the latest `SHOWN_MESSAGES` of the conversation before and after the handoff. */
export function latestShown<T>(messages: readonly T[]): T[] {
  return messages.slice(-SHOWN_MESSAGES);
}

/** The visitor is typing in a handed-off conversation: the console shows it (a conversation with the assistant ignores it). */
export async function reportTyping(deps: Deps, chatVisitor: ChatVisitor, conversationId: string): Promise<void> {
  const { handoff } = await conversationOf(deps, chatVisitor, conversationId);
  if (handoff) {
    await reportChatVisitorTyping(deps, handoff.ticket_id);
  }
}

/**
 * A file the visitor sends to the person who has the conversation: stored as the organization's
 * attachment (uploaded, as the ticket is made, by the help center's maker) and sent as a message of
 * its own. Before a handoff there is nobody to read it: the assistant does not take files.
 */
export async function sendFileToPerson(
  deps: Deps & { storage: AttachmentStorage },
  chatVisitor: ChatVisitor,
  handoff: HandoffRow | undefined,
  file: { uploadedById: string; upload: UploadInput },
) {
  if (!handoff) {
    throw new AppError({ code: 'CONFLICT', message: 'Files can be sent once a person has the conversation' });
  }
  const stored = await storeChatUpload(
    deps,
    { organizationId: handoff.organization_id, uploadedById: file.uploadedById },
    file.upload,
  );
  return sendToPerson(deps, chatVisitor, handoff, { content: `Sent a file: ${stored.fileName}`, attachmentIds: [stored.id] });
}

/** A file of the visitor's handed-off conversation: one on a public comment of its ticket. */
export async function openConversationFile(
  deps: Pick<Deps, 'db'> & { storage: AttachmentStorage },
  handoff: HandoffRow | undefined,
  fileId: string,
) {
  if (!handoff) {
    throw AppError.notFound('File not found');
  }
  return openChatTicketFile(deps, handoff.organization_id, handoff.ticket_id, fileId);
}
