/**
 * What a person types into a search box, read into a small structure that each database's query
 * language is then built from (`db/full-text.ts`), so no user input reaches FTS5's MATCH syntax or
 * PostgreSQL's tsquery syntax as syntax. The language, as help desks offer it:
 *
 * - words: every one must match (after stemming: `refunds` finds `refunded`);
 * - `"refund policy"`: the words next to each other, in that order (an unclosed quote runs to the end);
 * - `refun*`: a word starting with `refun`;
 * - `refund OR return`: either (binds tighter than the implicit AND);
 * - `-spam`, `-"out of office"`: none of that.
 *
 * Everything else is ordinary text: punctuation separates words, so `NEAR(`, `:`, `&|!` and stray
 * quotes or stars cannot change the meaning. A word with inner punctuation (`e-mail`, `v1.2`,
 * `jo@example.com`) is searched as the phrase of its parts.
 */

/** Words next to each other; `text` is what the user wrote, for engines that split words themselves. */
export interface PhraseAtom {
  kind: 'phrase';
  text: string;
  words: string[];
}

/** One word, matched as a prefix. */
export interface PrefixAtom {
  kind: 'prefix';
  word: string;
}

export type SearchAtom = PhraseAtom | PrefixAtom;

export interface SearchQuery {
  /** Every clause must match; a clause matches when any of its atoms does. */
  clauses: SearchAtom[][];
  /** No atom of these may match. */
  excluded: SearchAtom[];
}

/** Most atoms one query may hold: each is an index lookup, and a longer query is not a search. */
export const MAX_SEARCH_ATOMS = 16;

export class SearchQueryError extends Error {}

const WORD = /[\p{L}\p{N}]+/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are never search text
const CONTROL = /[\u0000-\u001f\u007f]/g;

interface Token {
  atom: SearchAtom;
  negated: boolean;
}

/** Reads a query; throws `SearchQueryError` when it names nothing to find or holds too much. */
export function parseSearchQuery(input: string): SearchQuery {
  const clauses: SearchAtom[][] = [];
  const excluded: SearchAtom[] = [];
  let orPending = false;
  let atoms = 0;
  for (const token of tokens(input.replace(CONTROL, ' '))) {
    if (token === 'OR') {
      orPending = clauses.length > 0;
      continue;
    }
    atoms += 1;
    if (atoms > MAX_SEARCH_ATOMS) {
      throw new SearchQueryError(`has more than ${MAX_SEARCH_ATOMS} words or phrases`);
    }
    const last = clauses.at(-1);
    if (token.negated) {
      excluded.push(token.atom);
    } else if (orPending && last) {
      last.push(token.atom);
    } else {
      clauses.push([token.atom]);
    }
    orPending = false;
  }
  if (clauses.length === 0) {
    throw new SearchQueryError(
      excluded.length > 0 ? 'needs a word to find, not only words to leave out' : 'must contain a letter or digit',
    );
  }
  return { clauses, excluded };
}

function* tokens(text: string): Generator<Token | 'OR'> {
  let at = 0;
  while (at < text.length) {
    while (at < text.length && /\s/.test(text.charAt(at))) {
      at += 1;
    }
    if (at >= text.length) {
      return;
    }
    const negated = text.charAt(at) === '-' && at + 1 < text.length && !/\s/.test(text.charAt(at + 1));
    if (negated) {
      at += 1;
    }
    let token: Token | 'OR' | null;
    if (text.charAt(at) === '"') {
      const close = text.indexOf('"', at + 1);
      const end = close === -1 ? text.length : close;
      token = phrase(text.slice(at + 1, end), negated);
      at = end + 1;
    } else {
      let end = at;
      while (end < text.length && !/\s/.test(text.charAt(end)) && text.charAt(end) !== '"') {
        end += 1;
      }
      token = bare(text.slice(at, end), negated);
      at = end;
    }
    if (token) {
      yield token;
    }
  }
}

function phrase(text: string, negated: boolean): Token | null {
  const words = text.toLowerCase().match(WORD) ?? [];
  return words.length === 0 ? null : { atom: { kind: 'phrase', text: text.trim(), words }, negated };
}

function bare(text: string, negated: boolean): Token | 'OR' | null {
  if (text === 'OR' && !negated) {
    return 'OR';
  }
  const words = text.toLowerCase().match(WORD) ?? [];
  const [word] = words;
  if (word !== undefined && words.length === 1 && /[\p{L}\p{N}]\*+$/u.test(text)) {
    return { atom: { kind: 'prefix', word }, negated };
  }
  return phrase(text.replace(/\*+$/, ''), negated);
}
