import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { enqueueEmail } from '../outbox/outbox.service.js';
import { domainOf } from '../outbox/smtp.js';
import {
  findThreadEnds,
  findTicketMailbox,
  insertEmailMessage,
  recordSentMessage,
  type TicketMailboxRow,
} from './outbound-email.repository.js';
import { replyAddressFor } from './reply-address.js';
import { boundedReferences, formatAddress, inAngleBrackets, MAX_REFERENCES, parseAddress, ticketSubject } from './threading.js';

/**
 * Every email about a ticket goes out through here, in the transaction of the change that causes
 * it. It is sent from the ticket's mailbox, answers to the ticket's signed reply address, carries
 * the `[BILL-1]` tag and threads under the earlier messages its recipient has seen; it is recorded
 * in `email_messages` with its `Message-ID`, made now, so that a reply citing it finds the ticket
 * even before it is delivered.
 *
 * A ticket has two kinds of thread. The customer's: everything received and every email to the
 * requestor. An agent's: the notifications that agent got about the ticket. Each message cites
 * only its own thread, so nothing internal is ever cited in the customer's mail, and an agent's
 * mail client shows that agent's notifications about a ticket as one conversation.
 */

export interface TicketEmailDeps {
  clock: Clock;
  ids: IdFactory;
  config: Pick<Config, 'SMTP_FROM'>;
  /** Signs the reply address (`reply-address.ts`). */
  secretKey: Buffer;
}

/** Whose thread of the ticket the email belongs to. */
export type TicketEmailAudience = { kind: 'customer' } | { kind: 'agent'; userId: string };

export interface TicketEmail {
  organizationId: string;
  ticket: { id: string; identifier: string; teamId: string };
  /** The comment that caused it, if one did. */
  commentId?: string | null;
  audience: TicketEmailAudience;
  /** The outbox dedupe key: one email per key (`outbox.service.ts`). */
  dedupeKey: string;
  to: string;
  /** The subject; the ticket's tag is added unless it is there already. */
  subject: string;
  text: string;
  html: string;
}

function threadOf(audience: TicketEmailAudience): string {
  return audience.kind === 'customer' ? 'customer' : `agent:${audience.userId}`;
}

interface Sender {
  mailbox: TicketMailboxRow | null;
  name: string | null;
  address: string;
  replyTo: string | null;
}

/** The mailbox's name and address, and the ticket's reply address; without a mailbox `SMTP_FROM` and no reply address. */
function senderOf(deps: TicketEmailDeps, mailbox: TicketMailboxRow | undefined, ticket: TicketEmail['ticket']): Sender {
  if (!mailbox) {
    return { mailbox: null, ...parseAddress(deps.config.SMTP_FROM), replyTo: null };
  }
  return {
    mailbox,
    name: mailbox.display_name,
    address: mailbox.address,
    replyTo: replyAddressFor(mailbox.address, ticket, deps.secretKey),
  };
}

/** The headers Switchboard sets, as `email_messages.headers` keeps them: `[name, value]`, in order. */
function headersOf(
  sender: Sender,
  message: { to: string; subject: string; messageId: string; inReplyTo: string | null; cited: string[] },
): [string, string][] {
  const headers: [string, string][] = [
    ['From', formatAddress(sender.name, sender.address)],
    ['To', message.to],
    ['Subject', message.subject],
    ['Message-ID', inAngleBrackets(message.messageId)],
  ];
  if (message.inReplyTo !== null) {
    headers.push(['In-Reply-To', inAngleBrackets(message.inReplyTo)]);
  }
  if (message.cited.length > 0) {
    headers.push(['References', message.cited.map(inAngleBrackets).join(' ')]);
  }
  if (sender.replyTo !== null) {
    headers.push(['Reply-To', formatAddress(sender.name, sender.replyTo)]);
  }
  return headers;
}

/** Queues a ticket email and records it; answers the outbox id, and whether this call queued it. */
export async function enqueueTicketEmail(
  trx: Kysely<DB> | Transaction<DB>,
  deps: TicketEmailDeps,
  email: TicketEmail,
): Promise<{ id: string; created: boolean }> {
  const { ticket } = email;
  const mailbox = await findTicketMailbox(trx, email.organizationId, ticket);
  const sender = senderOf(deps, mailbox, ticket);
  const thread = threadOf(email.audience);
  const cited = boundedReferences(await findThreadEnds(trx, email.organizationId, ticket.id, thread, MAX_REFERENCES - 1));
  const inReplyTo = cited.at(-1) ?? null;
  const messageId = `${deps.ids.ulid()}@${domainOf(sender.address)}`;
  const subject = ticketSubject(ticket.identifier, email.subject, {
    reply: email.audience.kind === 'customer' && inReplyTo !== null,
  });
  const queued = await enqueueEmail(trx, deps, {
    organizationId: email.organizationId,
    dedupeKey: email.dedupeKey,
    to: email.to,
    subject,
    text: email.text,
    html: email.html,
    threading: {
      messageId: inAngleBrackets(messageId),
      from: sender.mailbox ? { name: sender.mailbox.display_name, address: sender.mailbox.address } : null,
      replyTo: sender.replyTo,
      inReplyTo: inReplyTo === null ? null : inAngleBrackets(inReplyTo),
      references: cited.map(inAngleBrackets),
    },
  });
  if (!queued.created) {
    // The first call recorded it.
    return queued;
  }
  const headers = headersOf(sender, { to: email.to, subject, messageId, inReplyTo, cited });
  await insertEmailMessage(trx, {
    id: deps.ids.ulid(),
    organization_id: email.organizationId,
    mailbox_id: sender.mailbox?.id ?? null,
    ticket_id: ticket.id,
    comment_id: email.commentId ?? null,
    outbox_id: queued.id,
    direction: 'outbound',
    message_id: messageId,
    in_reply_to: inReplyTo,
    references_ids: JSON.stringify(cited),
    from_address: sender.address,
    from_name: sender.name,
    to_addresses: JSON.stringify([email.to]),
    cc_addresses: JSON.stringify([]),
    subject,
    headers: JSON.stringify(headers),
    raw: null,
    raw_size: 0,
    disposition: 'queued',
    thread,
    created_at: deps.clock.now().toISOString(),
  });
  return queued;
}

/**
 * Marks the email recorded for an outbox message as sent, with the bytes it went out as when the
 * transport gave them: the outbox worker calls it in the transaction that records the send.
 */
export async function markTicketEmailSent(trx: Transaction<DB>, outboxId: string, raw: Buffer | null): Promise<void> {
  await recordSentMessage(trx, outboxId, raw);
}
