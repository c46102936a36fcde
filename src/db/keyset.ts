import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { CursorKey } from '../lib/cursors.js';

/**
 * The keyset condition "after this row" for an order by `columns` (the last one unique, usually
 * the id), all in one `direction`, written as a row-value comparison: `(created_at, id) < (?, ?)`.
 * Both databases use it as a range on an index over the same columns, unlike the equivalent
 * `a < x OR (a = x AND id < y)`, which PostgreSQL cannot turn into one index range.
 */
export function afterKeys(
  columns: readonly string[],
  keys: readonly CursorKey[],
  direction: 'asc' | 'desc',
): RawBuilder<SqlBool> {
  if (columns.length !== keys.length || columns.length === 0) {
    throw new Error(`a keyset of ${columns.length} columns needs as many keys, got ${keys.length}`);
  }
  const left = sql.join(columns.map((column) => sql.ref(column)));
  const right = sql.join(keys.map((key) => sql`${key}`));
  return sql<SqlBool>`(${left}) ${sql.raw(direction === 'asc' ? '>' : '<')} (${right})`;
}
