import type { Transporter } from 'nodemailer';
import { loadOnce } from '../../lib/load-once.js';

/** nodemailer, imported when the first message goes out rather than at every start. */
const loadNodemailer = loadOnce(() => import('nodemailer'));

/** An address with its display name, or a bare address / `Name <address>` string. */
export type MailAddress = string | { name: string; address: string };

/** One message as the outbox hands it to a transport. */
export interface OutgoingMail {
  from: MailAddress;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** In angle brackets, the same on every attempt. */
  messageId: string;
  replyTo?: MailAddress;
  /** Threading headers, ids in angle brackets, `references` oldest first. */
  inReplyTo?: string;
  references?: string[];
  /** The `Date` header (the worker's clock). */
  date?: Date;
}

/** What a transport knows of a message it sent: the bytes, as signed and handed to the server. */
export interface SentMail {
  raw: Buffer;
}

/** What the outbox needs from a mail transport: send one message, and let go of connections. */
export interface MailTransport {
  /** Resolves once the server accepted the message; with the message's bytes when the transport built them. */
  send(message: OutgoingMail): Promise<SentMail | undefined>;
  close(): void;
}

/** nodemailer's `dkim` option: the domain (d=), selector (s=) and PEM RSA key signing every message. */
export interface DkimSigning {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/**
 * An SMTP transport for `SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…` for TLS from the
 * start). A fresh connection per message, with timeouts short enough that a send always ends
 * well within the outbox lease, so no other worker takes over a message still being sent.
 *
 * The message is built first (MIME, then the DKIM signature when `dkim` is given) and those exact
 * bytes are sent, so the sender can keep what the recipient got (`email_messages.raw`).
 */
export function createSmtpTransport(url: string, options: { dkim?: DkimSigning | null } = {}): MailTransport {
  let transport: Transporter | undefined;
  let builder: Transporter | undefined;
  return {
    async send(message) {
      const { createTransport } = await loadNodemailer();
      builder ??= createTransport({
        streamTransport: true,
        buffer: true,
        newline: 'windows',
        ...(options.dkim ? { dkim: options.dkim } : {}),
      });
      transport ??= createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
        dnsTimeout: 10_000,
      });
      const built = (await builder.sendMail(message)) as { envelope: { from: string; to: string[] }; message: Buffer };
      await transport.sendMail({ envelope: built.envelope, raw: built.message });
      return { raw: built.message };
    },
    close: () => transport?.close(),
  };
}

/** `<outbox id@sender's domain>`: the same on every attempt, so a resent copy is recognisable. */
export function messageIdFor(outboxId: string, from: string): string {
  return `<${outboxId}@${domainOf(from)}>`;
}

/** The domain of an address (`Name <user@example.com>` too); `switchboard.local` when there is none. */
export function domainOf(address: string): string {
  return /@([A-Za-z0-9.-]+)/.exec(address)?.[1] ?? 'switchboard.local';
}

interface SendError {
  code?: string;
  /** Set by nodemailer from the SMTP reply: true for a 5xx rejection (except 503). */
  permanent?: boolean;
}

/** A rejection that retrying the same message would meet again: a 5xx reply, or no valid recipient. */
export function isPermanentFailure(error: unknown): boolean {
  const sendError = (error ?? {}) as SendError;
  return sendError.permanent === true || sendError.code === 'EENVELOPE';
}
