import { createHash } from 'node:crypto';
import type { AddressObject, ParsedMail } from 'mailparser';
import { loadOnce } from '../../lib/load-once.js';
import { storableText } from '../../lib/storable-text.js';
import { loadHtmlConverters } from '../../platform/tickets/comment-content.js';

/** mailparser, imported when the first message arrives rather than at every start. */
const loadMailparser = loadOnce(() => import('mailparser'));

/** A file that came with a message; `contentId` (without brackets) for the `cid:` URLs of its HTML. */
export interface InboundFile {
  fileName: string;
  contentType: string;
  data: Buffer;
  contentId: string | null;
}

/**
 * What the headers of a received message say, cleaned as the whole message is: all the ingest
 * needs to decide what becomes of it (a loop, a bounce, a flood) before the rest is read.
 */
export interface InboundHead {
  /** `Message-ID`; for a message without a usable one, derived from its bytes (a resent copy has the same). */
  messageId: string;
  inReplyTo: string | null;
  /** `In-Reply-To` and `References` ids, the nearest first. */
  threadIds: string[];
  /** `References` as sent, oldest first. */
  references: string[];
  from: { address: string; name: string | null } | null;
  to: string[];
  cc: string[];
  /** Addresses the message was delivered to as the headers say (`Delivered-To`, `X-Original-To`, `To`, `Cc`). */
  headerRecipients: string[];
  subject: string;
  /** The header lines in order, `[name, value]`, values unfolded. */
  headers: [string, string][];
  /** Header values by lower-case name, first occurrence. */
  header(name: string): string | null;
  /** `multipart/report; report-type=delivery-status`: a delivery status notification. */
  isDeliveryReport: boolean;
}

/**
 * A received message as the ingest reads it: every text cleaned of what a database refuses (NUL,
 * lone surrogates), addresses in lower case, ids without angle brackets.
 */
export interface InboundMessage extends InboundHead {
  text: string;
  html: string | null;
  files: InboundFile[];
  raw: Buffer;
}

const MAX_ID_LENGTH = 500;
const MAX_THREAD_IDS = 50;
const MAX_HEADERS = 300;
const MAX_HEADER_VALUE = 4000;
/** HTML beyond this is not turned into text (a text part, when there is one, is used as it is). */
const MAX_HTML_TO_TEXT = 2 * 1024 * 1024;
// A plain address: what `From` must hold for a ticket to have a requestor.
const ADDRESS =
  /^[^\s@<>()",;:\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** A plain, syntactically valid address in lower case, or null. */
export function plainAddress(address: string | undefined | null): string | null {
  const trimmed = (address ?? '').trim().toLowerCase();
  return trimmed.length <= 254 && ADDRESS.test(trimmed) ? trimmed : null;
}

/** The `<id>`s of a header, without brackets; too long or blank ones dropped. */
export function messageIdsIn(value: string | null | undefined): string[] {
  const ids: string[] = [];
  for (const match of (value ?? '').matchAll(/<([^<>\s]+)>/g)) {
    const id = storableText(match[1] ?? '');
    if (id !== '' && id.length <= MAX_ID_LENGTH) {
      ids.push(id);
    }
  }
  return ids;
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const addresses: string[] = [];
  for (const entry of objects.flatMap((object) => object.value)) {
    for (const person of [entry, ...(entry.group ?? [])]) {
      const address = plainAddress(person.address);
      if (address && !addresses.includes(address)) {
        addresses.push(address);
      }
    }
  }
  return addresses;
}

function headerLinesOf(parsed: ParsedMail): [string, string][] {
  return parsed.headerLines.slice(0, MAX_HEADERS).map(({ key, line }) => {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : key;
    const value = (colon > 0 ? line.slice(colon + 1) : '').replace(/\r?\n[ \t]+/g, ' ').trim();
    return [storableText(name), storableText(value.slice(0, MAX_HEADER_VALUE))];
  });
}

async function textOf(parsed: ParsedMail): Promise<string> {
  if (typeof parsed.text === 'string' && parsed.text.trim() !== '') {
    return parsed.text;
  }
  if (typeof parsed.html === 'string' && parsed.html !== '') {
    const converters = await loadHtmlConverters();
    return converters.toText(parsed.html.slice(0, MAX_HTML_TO_TEXT), { wordwrap: false });
  }
  return '';
}

/** The Message-ID of a message that has no usable one: the SHA-256 (hex) of its bytes. */
export function derivedMessageId(sha256: string): string {
  return `${sha256}@switchboard.invalid`;
}

/** The most of a header block read before the body (a longer one is cut: what comes later is not headers a sender needs). */
export const MAX_HEADER_BLOCK = 256 * 1024;

/** Where the header block of `bytes` ends: the offset after its blank line, or -1 when the blank line is not in them. */
export function headerBlockEnd(bytes: Buffer): number {
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  if (crlf !== -1 && (lf === -1 || crlf < lf)) {
    return crlf + 4;
  }
  return lf === -1 ? -1 : lf + 2;
}

function headOf(parsed: ParsedMail, fallbackId: () => string): InboundHead {
  const headers = headerLinesOf(parsed);
  const header = (name: string) => headers.find(([key]) => key.toLowerCase() === name)?.[1] ?? null;
  const [declaredId] = messageIdsIn(header('message-id'));
  const inReplyTo = messageIdsIn(header('in-reply-to'));
  const references = messageIdsIn(header('references'));
  const sender = (Array.isArray(parsed.from) ? parsed.from[0] : parsed.from)?.value[0];
  const fromAddress = plainAddress(sender?.address);
  const contentType = header('content-type') ?? '';
  const to = addressesOf(parsed.to);
  const cc = addressesOf(parsed.cc);
  const delivered = headers
    .filter(([name]) => ['delivered-to', 'x-original-to', 'envelope-to'].includes(name.toLowerCase()))
    .map(([, value]) => plainAddress(value.replace(/^<|>$/g, '')))
    .filter((address): address is string => address !== null);
  return {
    messageId: declaredId ?? fallbackId(),
    inReplyTo: inReplyTo[0] ?? null,
    threadIds: [...new Set([...inReplyTo, ...[...references].reverse()])].slice(0, MAX_THREAD_IDS),
    references: references.slice(-MAX_THREAD_IDS),
    from: fromAddress ? { address: fromAddress, name: sender?.name ? storableText(sender.name).trim() || null : null } : null,
    to,
    cc,
    headerRecipients: [...new Set([...delivered, ...to, ...cc])],
    subject: storableText(parsed.subject ?? ''),
    headers,
    header,
    isDeliveryReport:
      /^\s*multipart\/report\s*(;|$)/i.test(contentType) &&
      /;\s*report-type\s*=\s*"?delivery-status"?\s*(;|$)/i.test(contentType),
  };
}

/**
 * Reads the header block of a message alone (its bytes up to the blank line, or the first
 * `MAX_HEADER_BLOCK` of them): what the message is, without its body. `fallbackId` names a
 * message without a usable Message-ID.
 */
export async function parseInboundHead(headerBlock: Buffer, fallbackId: string): Promise<InboundHead> {
  const { simpleParser } = await loadMailparser();
  const end = headerBlockEnd(headerBlock);
  const block = end === -1 ? Buffer.concat([headerBlock, Buffer.from('\r\n\r\n')]) : headerBlock.subarray(0, end);
  const parsed = await simpleParser(block, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  return headOf(parsed, () => fallbackId);
}

/**
 * Parses a message as it arrived. mailparser reads what it can of broken MIME and unknown
 * charsets rather than failing; what it cannot read at all throws, for the caller to refuse.
 */
export async function parseInboundMessage(raw: Buffer): Promise<InboundMessage> {
  const { simpleParser } = await loadMailparser();
  const parsed = await simpleParser(raw, { keepCidLinks: true, skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  return {
    ...headOf(parsed, () => derivedMessageId(createHash('sha256').update(raw).digest('hex'))),
    text: storableText(await textOf(parsed)),
    html: typeof parsed.html === 'string' && parsed.html !== '' ? storableText(parsed.html) : null,
    files: parsed.attachments.map((attachment) => ({
      fileName: storableText(attachment.filename ?? (attachment.contentId ? 'inline' : 'attachment')),
      contentType: storableText(attachment.contentType),
      data: attachment.content as Buffer,
      contentId: attachment.cid ? storableText(attachment.cid) : null,
    })),
    raw,
  };
}
