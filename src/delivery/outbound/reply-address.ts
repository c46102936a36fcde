import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A ticket's reply address: the mailbox's address with the ticket in its plus-part and a signature,
 * `support+bill-1.3f9c2a71d0e4@acme.test`. A customer's mail client may drop `In-Reply-To`, but it
 * keeps the address it replies to, so a reply still finds its ticket; the signature (an HMAC of the
 * ticket's id under `SECRET_KEY`) keeps anyone from writing onto a ticket by guessing its
 * identifier. Lower case throughout: some mail systems fold the local part's case.
 */

const SIGNATURE_LENGTH = 12;
const TOKEN = /^(.+)\+([a-z][a-z0-9]{0,9}-[1-9][0-9]{0,9})\.([0-9a-f]+)@(.+)$/;

function signatureOf(ticketId: string, key: Buffer): string {
  return createHmac('sha256', key).update(`switchboard reply address\0${ticketId}`).digest('hex').slice(0, SIGNATURE_LENGTH);
}

/** The reply address of a ticket for a mailbox address (`support@acme.test`). */
export function replyAddressFor(mailboxAddress: string, ticket: { id: string; identifier: string }, key: Buffer): string {
  const [local, domain] = splitAddress(mailboxAddress.toLowerCase());
  return `${local}+${ticket.identifier.toLowerCase()}.${signatureOf(ticket.id, key)}@${domain}`;
}

/** What a recipient address says: the mailbox address it was made from, and the ticket it names (unverified). */
export interface ReplyToken {
  mailboxAddress: string;
  /** The ticket identifier in lower case (`bill-1`). */
  ticketIdentifier: string;
  signature: string;
}

/** The token in a recipient address, or null for a plain address. */
export function parseReplyAddress(recipient: string): ReplyToken | null {
  const match = TOKEN.exec(recipient.trim().toLowerCase());
  if (!match) {
    return null;
  }
  const [, local, ticketIdentifier, signature, domain] = match as unknown as [string, string, string, string, string];
  return { mailboxAddress: `${local}@${domain}`, ticketIdentifier, signature };
}

/** Whether a token's signature is the one made for this ticket (found by its identifier). */
export function isReplyTokenOf(token: ReplyToken, ticketId: string, key: Buffer): boolean {
  const expected = Buffer.from(signatureOf(ticketId, key));
  const given = Buffer.from(token.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) {
    throw new Error(`not an email address: ${address}`);
  }
  return [address.slice(0, at), address.slice(at + 1)];
}
