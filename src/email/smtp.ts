import type { Transporter } from 'nodemailer';
import { loadOnce } from '../lib/load-once.js';

/** nodemailer, imported when the first message goes out rather than at every start. */
const loadNodemailer = loadOnce(() => import('nodemailer'));

/** What the outbox needs from a mail transport: send one message, and let go of connections. */
export interface MailTransport {
  send(message: { from: string; to: string; subject: string; text: string; html?: string; messageId: string }): Promise<void>;
  close(): void;
}

/**
 * An SMTP transport for `SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…` for TLS from the
 * start). A fresh connection per message, with timeouts short enough that a send always ends
 * well within the outbox lease, so no other worker takes over a message still being sent.
 */
export function createSmtpTransport(url: string): MailTransport {
  let transport: Transporter | undefined;
  return {
    async send(message) {
      const { createTransport } = await loadNodemailer();
      transport ??= createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
        dnsTimeout: 10_000,
      });
      await transport.sendMail(message);
    },
    close: () => transport?.close(),
  };
}

/** `<outbox id@sender's domain>`: the same on every attempt, so a resent copy is recognisable. */
export function messageIdFor(outboxId: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? 'switchboard.local';
  return `<${outboxId}@${domain}>`;
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
