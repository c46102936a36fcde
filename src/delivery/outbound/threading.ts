/**
 * The pure rules of a ticket email's thread: which ids it cites, its subject, how addresses and
 * ids are written. The service (`ticket-email.service.ts`) reads the thread and applies them.
 */

/**
 * Most ids a `References` header keeps: the thread's first (its root, which mail clients thread
 * under) and its latest nine. RFC 5322 §3.6.4 builds the header from the parent's; long threads
 * are trimmed in the middle, as RFC 5537 §3.4.4 does for news, so the header stays short while the
 * root and the recent parents remain.
 */
export const MAX_REFERENCES = 10;

/** The ids a message cites, oldest first: all of a short thread, the first and the latest of a long one. */
export function boundedReferences(threadIds: readonly string[]): string[] {
  const unique = [...new Set(threadIds)];
  if (unique.length <= MAX_REFERENCES) {
    return unique;
  }
  return [unique[0] as string, ...unique.slice(unique.length - (MAX_REFERENCES - 1))];
}

/** `Re:`, `Fwd:` and their localised forms, as many as lead a subject. */
const REPLY_PREFIXES = /^(?:\s*(?:re|fwd?|aw|sv|wg|antw)\s*(?:\[\d+\])?\s*:)+\s*/i;

/** A header-safe line: user text may hold line breaks, which have no place in a subject. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A ticket email's subject: `[BILL-1] …`, the tag once (a subject that already carries it, as
 * `Re: [BILL-1] …` does, keeps it where it is), and `Re: ` first when the email answers an earlier
 * message of the customer's thread.
 */
export function ticketSubject(identifier: string, subject: string, options: { reply: boolean }): string {
  const tag = `[${identifier}]`;
  const bare = oneLine(subject).replace(REPLY_PREFIXES, '');
  const tagged = bare.toLowerCase().includes(tag.toLowerCase()) ? bare : `${tag} ${bare}`.trim();
  return options.reply ? `Re: ${tagged}` : tagged;
}

/** A `Message-ID` as headers write it. Stored ids have no angle brackets. */
export function inAngleBrackets(id: string): string {
  return `<${id}>`;
}

/** `"Acme Support" <support@acme.test>`, quoted so that any display name reads as one. */
export function formatAddress(name: string | null, address: string): string {
  return name ? `"${name.replace(/["\\]/g, '\\$&')}" <${address}>` : address;
}

/** The display name and address of `Name <user@host>` (or of a bare address). */
export function parseAddress(value: string): { name: string | null; address: string } {
  const match = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (!match) {
    return { name: null, address: value.trim() };
  }
  const name = (match[1] ?? '')
    .replace(/^"(.*)"$/, '$1')
    .replace(/\\(["\\])/g, '$1')
    .trim();
  return { name: name || null, address: match[2] as string };
}
