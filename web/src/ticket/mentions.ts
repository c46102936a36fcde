/**
 * @mentions in the composer, in the syntax the API reads in internal notes, by its own rules
 * (`src/shared/mentions.ts`): `@Ada Lovelace` (a user's name, up to four words) or
 * `@ada@acme.test`. The ids of the users picked from the list also go in `metadata.mentions`,
 * which the API reads too, so a picked user is notified even when a name is ambiguous.
 */

import { MAX_MENTION_NAME_WORDS, startsMention } from '../../../src/shared/mentions';
import type { DraftMention } from './draft-storage';

export interface MentionableUser {
  id: string;
  name: string;
  email: string;
}

/** The `@…` being typed at the caret: where it starts (the `@`) and what follows it so far. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** The mention being typed when the caret sits right after `@` and a few characters (no line break, at most two spaces). */
export function activeMentionQuery(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) {
    return null;
  }
  // Only an `@` the API reads as a mention: not inside a word or an email address.
  if (!startsMention(before, at)) {
    return null;
  }
  const query = before.slice(at + 1);
  if (query.length > 40 || /[\n\r@]/.test(query) || /^\s/.test(query) || (query.match(/ /g)?.length ?? 0) > 2) {
    return null;
  }
  return { start: at, query };
}

/** Users whose name or email starts with the query (or whose name has a word that does), best first. */
export function matchMentionableUsers<User extends MentionableUser>(users: readonly User[], query: string, limit = 8): User[] {
  const needle = query.trim().toLowerCase();
  const scored: { user: User; score: number }[] = [];
  for (const user of users) {
    const name = user.name.toLowerCase();
    const email = user.email.toLowerCase();
    const score =
      needle === ''
        ? 3
        : name.startsWith(needle)
          ? 0
          : email.startsWith(needle)
            ? 1
            : name.split(/\s+/).some((word) => word.startsWith(needle))
              ? 2
              : -1;
    if (score >= 0) {
      scored.push({ user, score });
    }
  }
  scored.sort((a, b) => a.score - b.score || a.user.name.localeCompare(b.user.name));
  return scored.slice(0, limit).map((entry) => entry.user);
}

/**
 * How to write the user after `@` so the API finds them from the text alone: their name when it
 * is one to four words and no other user has it, else their email address.
 */
export function mentionToken(user: MentionableUser, users: readonly MentionableUser[]): string {
  const name = user.name.trim().replace(/\s+/g, ' ');
  const words = name.split(' ');
  const shared = users.some(
    (other) => other.id !== user.id && other.name.trim().replace(/\s+/g, ' ').toLowerCase() === name.toLowerCase(),
  );
  if (name === '' || name.includes('@') || words.length > MAX_MENTION_NAME_WORDS || shared) {
    return `@${user.email}`;
  }
  return `@${name}`;
}

/** Replaces the `@query` being typed by the user's token and a space; answers the new text and caret. */
export function insertMention(text: string, query: MentionQuery, caret: number, token: string): { text: string; caret: number } {
  const inserted = `${token} `;
  return { text: text.slice(0, query.start) + inserted + text.slice(caret), caret: query.start + inserted.length };
}

/** The ids of picked users whose token is still in the text (one deleted by hand mentions nobody). */
export function mentionedUserIds(text: string, picked: readonly DraftMention[]): string[] {
  const ids = new Set<string>();
  for (const mention of picked) {
    if (text.includes(mention.token)) {
      ids.add(mention.id);
    }
  }
  return [...ids];
}
