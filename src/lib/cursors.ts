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
