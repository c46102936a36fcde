import type { Kysely, Transaction } from 'kysely';
import { type Config, publicBaseUrl } from '../../config.js';
import type { DB } from '../../db/database.js';
import { isReplyTokenOf, parseReplyAddress } from '../../delivery/outbound/reply-address.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Metrics } from '../../lib/metrics.js';
import { storableText } from '../../lib/storable-text.js';
import { findAccountOfDomain } from '../../platform/accounts/account.lookup.js';
import { storeReceivedFiles } from '../../platform/attachments/attachment.service.js';
import type { AttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { findOrCreateContactByEmail } from '../../platform/contacts/customer-contact.service.js';
import {
  findVerifiedMailbox,
  isOwnMailboxAddress,
  mailboxActingUserId,
  type RoutingMailbox,
} from '../../platform/mailboxes/mailbox.lookup.js';
import { findTeam } from '../../platform/teams/team.lookup.js';
import { mergedInto } from '../../platform/ticket-merges/ticket-merge.service.js';
import { type CommentContent, deriveCommentContent, loadHtmlConverters } from '../../platform/tickets/comment-content.js';
import { addCustomerComment } from '../../platform/tickets/comment-inbound.service.js';
import { createTicketInTransaction } from '../../platform/tickets/ticket-create.service.js';
import { findLiveUserByEmail } from '../../platform/users/user.lookup.js';
import {
  countMessagesFromSender,
  findLiveTicket,
  findLiveTicketsByIdentifier,
  findTicketOfMessages,
  insertInboundMessage,
  isOwnSentMessage,
  isStoredInboundMessage,
  type ThreadTicket,
  updateEmailMessage,
} from './inbound.repository.js';
import { type SetAsideReason, setAsideReason } from './inbound-classify.js';
import { type InboundHead, type InboundMessage, plainAddress } from './inbound-message.js';
import { visibleReplyHtml, visibleReplyText } from './reply-text.js';

export interface InboundDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Config;
  /** Verifies the signatures of reply addresses. */
  secretKey: Buffer;
  storage: AttachmentStorage;
  /** The process's metrics: tickets made from email count in `tickets_created_total`. */
  metrics?: Pick<Metrics, 'ticketCreated'>;
}

/**
 * A received message as the ingest takes it: what its headers say at once, the rest only when it
 * is taken in (a message set aside, looped or over its sender's limit is never read whole).
 */
export interface ReceivedMessage {
  head: InboundHead;
  /** Its size in bytes, as received. */
  size: number;
  /** The whole message, parsed; throws `UnreadableMessageError` for bytes that are not a message. */
  read(): Promise<InboundMessage>;
}

/** The bytes of a message taken in cannot be read as MIME: SMTP refuses it (554), IMAP keeps it aside as `unreadable`. */
export class UnreadableMessageError extends Error {
  override readonly name = 'UnreadableMessageError';
}

/** A received message already parsed whole (a test's, or one read before its headers were looked at). */
export function receivedMessageOf(message: InboundMessage): ReceivedMessage {
  return { head: message, size: message.raw.length, read: async () => message };
}

/** One message as delivered to one organization: through a mailbox of it, to these recipients. */
export interface InboundDelivery {
  message: ReceivedMessage;
  mailbox: RoutingMailbox;
  /** The recipients the sender named (the SMTP envelope's); the headers' are looked at too. */
  recipients: readonly string[];
  /** SMTP's `MAIL FROM` ('' for the null sender); undefined when unknown (IMAP). */
  envelopeFrom?: string;
}

/** What became of a message, as `email_messages.disposition` records it. */
export type InboundDisposition =
  | 'ticket_created'
  | 'reply'
  | 'from_agent'
  | 'rate_limited'
  | 'too_large'
  | 'unreadable'
  | SetAsideReason;

export type IngestOutcome =
  | { duplicate: true }
  | {
      duplicate: false;
      emailMessageId: string;
      disposition: InboundDisposition;
      ticketId: string | null;
      commentId: string | null;
    };

/** The mailbox's team is archived or gone: the message cannot be filed now (SMTP answers 4xx, IMAP retries later). */
export class MailboxUnavailableError extends Error {
  override readonly name = 'MailboxUnavailableError';
}

const TITLE_MAX = 500;
const DESCRIPTION_MAX = 100_000;
const HTML_MAX = 1_000_000;
const HOUR_MS = 3_600_000;
const CONTACT_NAME_MAX = 100;

/** Whether an address is one of Switchboard's own: a mailbox, a ticket's reply address, the outgoing sender. */
async function isOwnAddress(db: Kysely<DB>, config: Pick<Config, 'SMTP_FROM'>, address: string): Promise<boolean> {
  const sender = plainAddress(/<([^<>]+)>/.exec(config.SMTP_FROM)?.[1] ?? config.SMTP_FROM);
  if (address === sender || (await isOwnMailboxAddress(db, address))) {
    return true;
  }
  const token = parseReplyAddress(address);
  return token !== null && (await isOwnMailboxAddress(db, token.mailboxAddress));
}

/** The subject as a ticket title: one line, within the ticket API's 500 characters. */
export function ticketTitleOf(subject: string): string {
  const line = subject
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = [...line];
  if (characters.length === 0) {
    return '(no subject)';
  }
  return characters.length <= TITLE_MAX ? line : `${characters.slice(0, TITLE_MAX - 1).join('')}…`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : storableText(text.slice(0, max));
}

/** The display name split for a new contact: "Jane Q. Doe" is Jane and Q. Doe. */
function contactNames(name: string | null): { firstName?: string; lastName?: string | null } {
  const words = (name ?? '').replace(/["']/g, '').trim().split(/\s+/).filter(Boolean);
  const [first, ...rest] = words;
  if (!first || /@/.test(first)) {
    return {};
  }
  return { firstName: first.slice(0, CONTACT_NAME_MAX), lastName: rest.join(' ').slice(0, CONTACT_NAME_MAX) || null };
}

/** `cid:` references of the HTML pointed at the stored inline images (the sanitiser drops any left). */
function resolveContentIds(html: string, urls: ReadonlyMap<string, string>): string {
  return html.replace(/cid:([^"'\s>)]+)/gi, (whole, id: string) => {
    let key = id;
    try {
      key = decodeURIComponent(id);
    } catch {
      key = id;
    }
    return urls.get(key) ?? urls.get(key.toLowerCase()) ?? whole;
  });
}

/**
 * The comment a message becomes: its text (for a reply without what it quotes) and its sanitised
 * HTML (cut likewise, images pointing at their attachments). A message with no text at all still
 * says something, so the comment is never empty.
 */
async function commentContentOf(
  message: InboundMessage,
  imageUrls: ReadonlyMap<string, string>,
  options: { reply: boolean; files: number },
): Promise<CommentContent> {
  const wholeText = message.text.trim();
  const text = (options.reply ? visibleReplyText(wholeText) : '') || wholeText;
  let html = message.html === null ? null : resolveContentIds(truncate(message.html, HTML_MAX), imageUrls);
  if (html !== null && options.reply) {
    const cut = visibleReplyHtml(html);
    const converters = await loadHtmlConverters();
    const shown = converters.sanitize(cut);
    html = converters.toText(shown, { wordwrap: false }).trim() !== '' || /<img\b/i.test(shown) ? cut : null;
  }
  const fallback = options.files > 0 ? `(${options.files} attachment${options.files === 1 ? '' : 's'})` : '(no text)';
  return deriveCommentContent({
    content: truncate(text, DESCRIPTION_MAX) || fallback,
    contentHtml: html ?? undefined,
  });
}

/**
 * The ticket a message answers, in the mailbox's organization only: by a signed reply address
 * among its recipients, else by the Message-IDs it cites. A merged ticket answers for the one it
 * went into; a deleted one for nothing (the message becomes a new ticket).
 */
async function findRepliedTicket(
  trx: Transaction<DB>,
  deps: InboundDeps,
  delivery: InboundDelivery,
): Promise<ThreadTicket | null> {
  const organizationId = delivery.mailbox.organization_id;
  let ticketId: string | null = null;
  for (const recipient of new Set([...delivery.recipients, ...delivery.message.head.headerRecipients])) {
    const token = parseReplyAddress(recipient);
    const mailbox = token ? await findVerifiedMailbox(trx, token.mailboxAddress) : undefined;
    if (!token || mailbox?.organization_id !== organizationId) {
      continue;
    }
    const candidates = await findLiveTicketsByIdentifier(trx, organizationId, token.ticketIdentifier);
    ticketId = candidates.find((ticket) => isReplyTokenOf(token, ticket.id, deps.secretKey))?.id ?? null;
    if (ticketId) {
      break;
    }
  }
  ticketId ??= await findTicketOfMessages(trx, organizationId, delivery.message.head.threadIds);
  if (!ticketId) {
    return null;
  }
  const merged = await mergedInto(trx, ticketId);
  return (await findLiveTicket(trx, organizationId, merged?.ticketId ?? ticketId)) ?? null;
}

/**
 * Why a message is kept by its headers alone, decided before its body is read: set aside (see
 * `inbound-classify.ts`), a copy of a message the organization sent (`loop`), or its sender past
 * `INBOUND_MAX_PER_SENDER_PER_HOUR` (`rate_limited`); `duplicate` for one stored already. The
 * transaction checks the same again, so a race between two deliveries decides nothing here.
 */
type Screening = SetAsideReason | 'rate_limited' | 'duplicate' | null;

async function screen(deps: InboundDeps, delivery: InboundDelivery, setAside: SetAsideReason | null): Promise<Screening> {
  const { head } = delivery.message;
  const organizationId = delivery.mailbox.organization_id;
  if (await isStoredInboundMessage(deps.db, organizationId, head.messageId)) {
    return 'duplicate';
  }
  if (setAside) {
    return setAside;
  }
  if (await isOwnSentMessage(deps.db, organizationId, head.messageId)) {
    return 'loop';
  }
  const since = new Date(deps.clock.now().getTime() - HOUR_MS).toISOString();
  const sent = head.from ? await countMessagesFromSender(deps.db, organizationId, head.from.address, since) : 0;
  return sent >= deps.config.INBOUND_MAX_PER_SENDER_PER_HOUR ? 'rate_limited' : null;
}

/**
 * Files a received message for one organization. What its headers say comes first: a duplicate
 * stops there, and a message set aside (see `inbound-classify.ts`), a copy of one the organization
 * sent, or one whose sender is past `INBOUND_MAX_PER_SENDER_PER_HOUR` is kept by its headers alone,
 * its body never read. Otherwise the body is read, and in one transaction the `email_messages` row
 * (with the original), the requestor's contact (linked to the account of its domain when new), the
 * attachments, and either a comment on the ticket it answers or a new ticket routed as API tickets
 * are. The caller acknowledges the message only once this resolves.
 */
export async function ingestMessage(deps: InboundDeps, delivery: InboundDelivery): Promise<IngestOutcome> {
  const { head } = delivery.message;
  const fromOwnAddress = head.from ? await isOwnAddress(deps.db, deps.config, head.from.address) : false;
  const setAside = setAsideReason(head, { envelopeFrom: delivery.envelopeFrom, fromOwnAddress });
  const screened = await screen(deps, delivery, setAside);
  if (screened === 'duplicate') {
    return { duplicate: true };
  }
  const body = screened === null ? await delivery.message.read() : null;
  const written: string[] = [];
  try {
    return await deps.db.transaction().execute((trx) => fileMessage(trx, deps, delivery, { setAside, screened, body }, written));
  } catch (error) {
    await Promise.allSettled(written.map((key) => deps.storage.discard(key)));
    throw error;
  }
}

/**
 * The screening again, in the transaction that stored the row, for what a concurrent delivery
 * changed meanwhile (the sender's count includes this message now).
 */
async function screenAgain(
  trx: Transaction<DB>,
  deps: InboundDeps,
  organizationId: string,
  head: InboundHead,
): Promise<'loop' | 'rate_limited' | null> {
  if (await isOwnSentMessage(trx, organizationId, head.messageId)) {
    return 'loop';
  }
  const since = new Date(deps.clock.now().getTime() - HOUR_MS).toISOString();
  const sent = head.from ? await countMessagesFromSender(trx, organizationId, head.from.address, since) : 0;
  return sent > deps.config.INBOUND_MAX_PER_SENDER_PER_HOUR ? 'rate_limited' : null;
}

type Outcome = (disposition: InboundDisposition, ticketId?: string | null, commentId?: string | null) => IngestOutcome;

async function fileMessage(
  trx: Transaction<DB>,
  deps: InboundDeps,
  delivery: InboundDelivery,
  decided: { setAside: SetAsideReason | null; screened: Exclude<Screening, 'duplicate'>; body: InboundMessage | null },
  written: string[],
): Promise<IngestOutcome> {
  const { mailbox } = delivery;
  const { head, size } = delivery.message;
  const organizationId = mailbox.organization_id;
  const now = deps.clock.now();
  const emailMessageId = deps.ids.ulid();
  const stored = await insertInboundMessage(trx, {
    id: emailMessageId,
    organization_id: organizationId,
    mailbox_id: mailbox.id,
    direction: 'inbound',
    message_id: head.messageId,
    in_reply_to: head.inReplyTo,
    references_ids: JSON.stringify(head.references),
    from_address: head.from?.address ?? '',
    from_name: head.from?.name ?? null,
    to_addresses: JSON.stringify(head.to),
    cc_addresses: JSON.stringify(head.cc),
    subject: head.subject,
    headers: JSON.stringify(head.headers),
    raw: decided.body?.raw ?? null,
    raw_size: size,
    disposition: decided.setAside ?? 'received',
    created_at: now.toISOString(),
  });
  if (!stored) {
    return { duplicate: true };
  }
  const outcome: Outcome = (disposition, ticketId = null, commentId = null) => ({
    duplicate: false,
    emailMessageId,
    disposition,
    ticketId,
    commentId,
  });
  const reason = decided.screened ?? (await screenAgain(trx, deps, organizationId, head));
  const { body } = decided;
  if (reason || !head.from || !body) {
    // Kept beside the ticket it answers, when it answers one, so agents see the out-of-office or the bounce.
    const ticket = reason === 'auto_reply' || reason === 'bounce' ? await findRepliedTicket(trx, deps, delivery) : null;
    // By its headers alone: a race decided here what the screening did not (the body read for nothing is not kept).
    await updateEmailMessage(trx, emailMessageId, {
      disposition: reason ?? 'no_sender',
      ticket_id: ticket?.id ?? null,
      raw: null,
    });
    return outcome(reason ?? 'no_sender', ticket?.id ?? null);
  }
  return takeIn(trx, deps, { delivery, message: body, from: head.from, emailMessageId, outcome }, written);
}

/** A message taken into the conversation: a comment on the ticket it answers, or a new ticket. */
async function takeIn(
  trx: Transaction<DB>,
  deps: InboundDeps,
  taken: {
    delivery: InboundDelivery;
    message: InboundMessage;
    from: { address: string; name: string | null };
    emailMessageId: string;
    outcome: Outcome;
  },
  written: string[],
): Promise<IngestOutcome> {
  const { delivery, message, from, emailMessageId, outcome } = taken;
  const { mailbox } = delivery;
  const organizationId = mailbox.organization_id;
  const ticket = await findRepliedTicket(trx, deps, delivery);
  if (ticket && (await findLiveUserByEmail(trx, organizationId, from.address)) !== undefined) {
    // One of the organization's people answering by email (their notifications carry the ticket's
    // reply address). `From` proves nothing, so it is not posted as theirs, and it is not the
    // customer's either: kept beside the ticket, where the ticket's emails show it.
    await updateEmailMessage(trx, emailMessageId, { disposition: 'from_agent', ticket_id: ticket.id });
    return outcome('from_agent', ticket.id);
  }
  const team = ticket ? null : await findTeam(trx, organizationId, mailbox.team_id);
  if (!ticket && !team) {
    throw new MailboxUnavailableError(`the team of mailbox ${mailbox.address} is archived or gone`);
  }
  const account = await findAccountOfDomain(trx, organizationId, from.address.split('@')[1] ?? '');
  const contact = await findOrCreateContactByEmail(
    trx,
    deps,
    organizationId,
    from.address,
    { type: 'system', id: null, name: `Email to ${mailbox.address}` },
    { ...contactNames(from.name), accountId: account?.id ?? null },
  );
  const uploadedById = await mailboxActingUserId(trx, organizationId, mailbox);
  if (!uploadedById) {
    throw new Error(`organization ${organizationId} has no admin to file mail as`);
  }
  const attachmentIds = await storeReceivedFiles(trx, deps, { organizationId, uploadedById }, message.files, written);
  const base = publicBaseUrl(deps.config, 'platform');
  const imageUrls = new Map<string, string>();
  message.files.forEach((file, index) => {
    if (file.contentId) {
      imageUrls.set(file.contentId, `${base}/v1/attachments/${attachmentIds[index]}`);
    }
  });
  if (ticket) {
    const commentId = await addCustomerComment(trx, deps, {
      organizationId,
      ticket,
      contactId: contact.id,
      content: await commentContentOf(message, imageUrls, { reply: true, files: attachmentIds.length }),
      attachmentIds,
      sourceEmailId: emailMessageId,
      isReply: true,
    });
    await updateEmailMessage(trx, emailMessageId, { disposition: 'reply', ticket_id: ticket.id, comment_id: commentId });
    return outcome('reply', ticket.id, commentId);
  }
  const ticketId = await createTicketInTransaction(
    trx,
    deps,
    {
      organizationId,
      userId: null,
      createdById: uploadedById,
      actor: { type: 'customer_contact', id: contact.id },
      skipMandatoryFields: true,
    },
    {
      title: ticketTitleOf(message.subject),
      description: truncate(message.text.trim(), DESCRIPTION_MAX) || null,
      teamId: mailbox.team_id,
      requestorEmail: from.address,
      source: 'email',
      accountId: account?.id ?? null,
    },
  );
  // The ticket's description is the text; its attachments and inline images need a comment to live on.
  const commentId =
    attachmentIds.length > 0
      ? await addCustomerComment(trx, deps, {
          organizationId,
          ticket: (await findLiveTicket(trx, organizationId, ticketId)) ?? {
            id: ticketId,
            team_id: mailbox.team_id,
            is_private: false,
          },
          contactId: contact.id,
          content: await commentContentOf(message, imageUrls, { reply: false, files: attachmentIds.length }),
          attachmentIds,
          sourceEmailId: emailMessageId,
          isReply: false,
        })
      : null;
  await updateEmailMessage(trx, emailMessageId, { disposition: 'ticket_created', ticket_id: ticketId, comment_id: commentId });
  return outcome('ticket_created', ticketId, commentId);
}

/** What an IMAP server says of a message the ingest cannot read (its envelope). */
export interface UnreadableMessage {
  messageId: string | null;
  from: { address: string | null; name: string | null };
  subject: string;
  size: number;
}

/**
 * Records a message found in an IMAP folder that cannot be filed, by what its envelope says:
 * over `INBOUND_MAX_BYTES` (`too_large`, not kept), or not MIME that can be read at all
 * (`unreadable`, kept as it came). Over SMTP the sender would be refused, but a message already in
 * a mailbox can only be kept aside, where it is seen. Answers false for one recorded before.
 */
export async function recordUnreadableMessage(
  deps: Pick<InboundDeps, 'db' | 'clock' | 'ids'>,
  mailbox: RoutingMailbox,
  message: UnreadableMessage,
  fallbackId: string,
  kept: { disposition: 'too_large' } | { disposition: 'unreadable'; raw: Buffer },
): Promise<boolean> {
  return insertInboundMessage(deps.db, {
    id: deps.ids.ulid(),
    organization_id: mailbox.organization_id,
    mailbox_id: mailbox.id,
    direction: 'inbound',
    message_id: message.messageId ?? fallbackId,
    references_ids: '[]',
    from_address: plainAddress(message.from.address) ?? '',
    from_name: message.from.name ? storableText(message.from.name) : null,
    to_addresses: '[]',
    cc_addresses: '[]',
    subject: storableText(message.subject),
    headers: '[]',
    raw: kept.disposition === 'unreadable' ? kept.raw : null,
    raw_size: message.size,
    disposition: kept.disposition,
    created_at: deps.clock.now().toISOString(),
  });
}
