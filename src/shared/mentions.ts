/**
 * Who an internal note mentions: `@ada@acme.test` (an email) or `@Ada Lovelace` (a user's name,
 * up to four words, the longest name that fits), and the ids or emails an editor put in
 * `metadata.mentions`. Pure text work, written once for the API, whose notification service
 * resolves the candidates to users (`platform/notifications/`), and the console, whose composer
 * offers a mention where the API will read one and writes it so the API finds the user.
 */

/** Mentions read per note: a note pasting a mailing list does not mail the whole organization. */
export const MAX_MENTIONS = 20;
/** The API reads at most this many words of a name after `@`. */
export const MAX_MENTION_NAME_WORDS = 4;

/** An `@` that starts a mention: not inside a word or an email address (`pat@customer.test`). */
const MENTION_START_PATTERN = '(?<![\\p{L}\\p{N}._%+\\-@])@';
const MENTION_START = new RegExp(MENTION_START_PATTERN, 'gu');
const MENTION_START_HERE = new RegExp(MENTION_START_PATTERN, 'uy');
const EMAIL = /^[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/u;
// The closing quotes ’ and ” as escapes, so that the bundle stays Latin-1 (scripts/bundle-server.ts).
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"\u2019\u201d]+$/u;

export interface MentionCandidates {
  /** Lower-cased addresses. */
  emails: string[];
  /** One entry per `@name`: the names it may stand for, longest first, lower-cased. */
  names: string[][];
  /** User ids from `metadata.mentions`. */
  ids: string[];
}

/** Whether the `@` at `index` of `text` starts a mention, as the API reads it. */
export function startsMention(text: string, index: number): boolean {
  MENTION_START_HERE.lastIndex = index;
  return MENTION_START_HERE.test(text);
}

/** Whether a note may mention anyone at all: the cheap test before any parsing or query. */
export function mayMention(text: string, metadata: Record<string, unknown> | null | undefined): boolean {
  return text.includes('@') || (Array.isArray(metadata?.mentions) && metadata.mentions.length > 0);
}

function nameCandidates(rest: string): string[] {
  const words = (rest.match(/^[^\s@]+(?:[ \t]+[^\s@]+)*/u)?.[0] ?? '').split(/[ \t]+/u).slice(0, MAX_MENTION_NAME_WORDS);
  const names: string[] = [];
  for (let count = words.length; count > 0; count--) {
    const name = words.slice(0, count).join(' ').replace(TRAILING_PUNCTUATION, '').toLowerCase();
    if (name !== '' && !names.includes(name)) {
      names.push(name);
    }
  }
  return names;
}

function metadataMentions(metadata: Record<string, unknown> | null | undefined, into: MentionCandidates): void {
  const entries = Array.isArray(metadata?.mentions) ? (metadata.mentions as unknown[]) : [];
  for (const entry of entries.slice(0, MAX_MENTIONS)) {
    const record = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : null;
    const id = typeof entry === 'string' && !entry.includes('@') ? entry : (record?.userId ?? record?.id);
    const email = typeof entry === 'string' && entry.includes('@') ? entry : record?.email;
    if (typeof id === 'string' && id !== '') {
      into.ids.push(id);
    } else if (typeof email === 'string' && EMAIL.test(email)) {
      into.emails.push(email.toLowerCase());
    }
  }
}

export function findMentionCandidates(text: string, metadata?: Record<string, unknown> | null): MentionCandidates {
  const candidates: MentionCandidates = { emails: [], names: [], ids: [] };
  let found = 0;
  for (const match of text.matchAll(MENTION_START)) {
    if (found++ >= MAX_MENTIONS) {
      break;
    }
    const rest = text.slice(match.index + 1, match.index + 1 + 320);
    const email = rest.match(EMAIL)?.[0];
    if (email) {
      candidates.emails.push(email.toLowerCase());
      continue;
    }
    const names = nameCandidates(rest);
    if (names.length > 0) {
      candidates.names.push(names);
    }
  }
  metadataMentions(metadata, candidates);
  return candidates;
}

/**
 * The users the candidates name: an email or id names its user; a name names the one user whose
 * name it is (case-insensitively), trying the longest reading first. A name two users share names
 * nobody: better no email than one to the wrong person.
 */
export function resolveMentions(
  candidates: MentionCandidates,
  users: readonly { id: string; name: string; email: string }[],
): string[] {
  const ids = new Set<string>();
  for (const user of users) {
    if (candidates.ids.includes(user.id) || candidates.emails.includes(user.email.toLowerCase())) {
      ids.add(user.id);
    }
  }
  for (const readings of candidates.names) {
    for (const name of readings) {
      const named = users.filter((user) => user.name.trim().toLowerCase() === name);
      if (named.length === 1 && named[0]) {
        ids.add(named[0].id);
      }
      if (named.length > 0) {
        break;
      }
    }
  }
  return [...ids];
}
