import type { InboundHead } from './inbound-message.js';

/**
 * Why a received message is kept but acted on no further: it creates no ticket, adds no comment
 * and makes Switchboard send nothing. Answering any of these is how mail loops start.
 *
 * - `no_sender`: no usable `From` address, so nobody to file a ticket for.
 * - `loop`: from an address of Switchboard itself (any mailbox, a ticket's reply address, the
 *   outgoing `SMTP_FROM`), or a copy of a message it sent.
 * - `bounce`: a delivery status notification (`multipart/report; report-type=delivery-status`),
 *   or sent with an empty return path (`MAIL FROM:<>`, `Return-Path: <>`) or by `MAILER-DAEMON`.
 * - `auto_reply`: `Auto-Submitted` other than `no` (RFC 3834), `X-Autoreply`, `X-Autorespond`,
 *   `Precedence: bulk | junk | list | auto_reply` (out-of-office replies, lists, campaigns).
 */
export type SetAsideReason = 'no_sender' | 'loop' | 'bounce' | 'auto_reply';

const AUTOMATED_PRECEDENCE = new Set(['bulk', 'junk', 'list', 'auto_reply']);

export interface ClassifyContext {
  /** The envelope's `MAIL FROM` (SMTP): '' for the null sender `<>`, undefined when unknown (IMAP). */
  envelopeFrom?: string;
  /** Whether `From` is an address of Switchboard's own (the caller asks the database). */
  fromOwnAddress: boolean;
}

function isNullSender(value: string | null | undefined): boolean {
  return value !== null && value !== undefined && /^\s*<?\s*>?\s*$/.test(value);
}

export function isBounce(message: InboundHead, envelopeFrom: string | undefined): boolean {
  const local = message.from?.address.split('@')[0] ?? '';
  return (
    message.isDeliveryReport || envelopeFrom === '' || isNullSender(message.header('return-path')) || local === 'mailer-daemon'
  );
}

export function isAutoReply(message: InboundHead): boolean {
  const autoSubmitted = message.header('auto-submitted');
  if (autoSubmitted !== null && (autoSubmitted.split(';')[0] ?? '').trim().toLowerCase() !== 'no') {
    return true;
  }
  if (message.header('x-autoreply') !== null || message.header('x-autorespond') !== null) {
    return true;
  }
  return [message.header('precedence'), message.header('x-precedence')].some(
    (value) => value !== null && AUTOMATED_PRECEDENCE.has(value.trim().toLowerCase()),
  );
}

/** Why the message is set aside, or null when it may become a ticket or a comment. */
export function setAsideReason(message: InboundHead, context: ClassifyContext): SetAsideReason | null {
  if (!message.from) {
    return 'no_sender';
  }
  if (context.fromOwnAddress) {
    return 'loop';
  }
  // Before auto-replies: a bounce often says Auto-Submitted too, and is the more telling of the two.
  if (isBounce(message, context.envelopeFrom)) {
    return 'bounce';
  }
  return isAutoReply(message) ? 'auto_reply' : null;
}
