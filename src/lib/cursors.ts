import { AppError } from './errors.js';
/**
 * Keyset cursors: opaque to clients, they carry the sort values of the last row of a page (for
 * example its `created_at` and `id`). Base64url of a JSON array, so any string, number or null
 * key survives; a cursor that does not decode to the expected number of keys is refused.
 */
export type CursorKey = string | number | null;

export function encodeCursor(keys: readonly CursorKey[]): string {
  return Buffer.from(JSON.stringify(keys), 'utf8').toString('base64url');
}

/** The keys of a cursor this API handed out, or null when it is not one (malformed, edited, another list's). */
export function decodeCursor(cursor: string, length: number): CursorKey[] | null {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) {
    return null;
  }
  try {
    const keys: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const valid =
      Array.isArray(keys) &&
      keys.length === length &&
      keys.every((key) => key === null || typeof key === 'string' || (typeof key === 'number' && Number.isFinite(key)));
    return valid ? (keys as CursorKey[]) : null;
  } catch {
    return null;
  }
}

/**
 * A page of `limit` rows from a query that fetched `limit + 1`: the extra row only says that there
 * is a next page, whose cursor holds the keys of this page's last row.
 */
export function keysetPage<Row>(
  rows: Row[],
  limit: number,
  keysOf: (row: Row) => readonly CursorKey[],
): { items: Row[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keysOf(last)) : null };
}

/** The keys of a request's `cursor` (undefined without one); a cursor this list did not hand out is a 400 naming it. */
export function readCursor(cursor: string | undefined, length: number): CursorKey[] | undefined {
  if (cursor === undefined) {
    return undefined;
  }
  const keys = decodeCursor(cursor, length);
  if (!keys) {
    throw AppError.invalid('cursor is not a nextCursor this list returned', {
      location: 'query',
      path: ['cursor'],
      rule: 'cursor',
    });
  }
  return keys;
}

/** What a list's cursor key holds: a timestamp, an integer, or any text (ids, names, sort keys). */
export type CursorKeyKind = 'instant' | 'integer' | 'text';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

const fits: Record<CursorKeyKind, (key: CursorKey | undefined) => boolean> = {
  instant: (key) => typeof key === 'string' && INSTANT.test(key) && !Number.isNaN(Date.parse(key)),
  integer: (key) => Number.isSafeInteger(key),
  text: (key) => typeof key === 'string',
};

/**
 * `readCursor` for a list whose order keys are of known kinds. A cursor whose keys are not (another
 * list's, an edited one) is the same 400 as a malformed one, rather than a value the database
 * would refuse to compare.
 */
export function readTypedCursor(cursor: string | undefined, kinds: readonly CursorKeyKind[]): CursorKey[] | undefined {
  const keys = readCursor(cursor, kinds.length);
  if (keys && !kinds.every((kind, index) => fits[kind](keys[index]))) {
    throw AppError.invalid('cursor is not a nextCursor this list returned', {
      location: 'query',
      path: ['cursor'],
      rule: 'cursor',
    });
  }
  return keys;
}

/**
 * The cursor of a list that also takes `page` (or `offset`): the two cannot be combined (the
 * schema's default page 0 counts as not sent).
 */
export function readPageCursor(
  query: { cursor?: string; page?: number; offset?: number },
  length: number,
): CursorKey[] | undefined {
  if (query.cursor !== undefined && (query.page || query.offset)) {
    throw AppError.invalid('cursor and page cannot be combined', { location: 'query', path: ['cursor'], rule: 'exclusive' });
  }
  return readCursor(query.cursor, length);
}

/**
 * Where a page of a list starts: after the row whose sort keys `after` holds (a cursor), or past
 * `offset` rows (a page number). Repositories fetch `limit + 1` rows, the extra one only telling
 * that a next page exists.
 */
export interface ListPage {
  after?: CursorKey[];
  offset: number;
  limit: number;
}

/** The page a list request asks for; `keyCount` is how many sort keys (the id last) the list's cursor holds. */
export function readListPage(query: { cursor?: string; page?: number }, limit: number, keyCount: number): ListPage {
  const after = readCursor(query.cursor, keyCount);
  if (after === undefined) {
    return { offset: (query.page ?? 0) * limit, limit };
  }
  if (query.page !== undefined) {
    throw AppError.invalid('cursor and page cannot be combined', { location: 'query', path: ['cursor'], rule: 'cursor' });
  }
  return { after, offset: 0, limit };
}
