import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
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

/**
 * A keyset page's order: `query` ordered by `columns` (the last one unique), all in `direction`,
 * starting after `after` (the keys of the last row of the page before) when there is one.
 */
// biome-ignore lint/suspicious/noExplicitAny: any select query
export function inKeysetOrder<Query extends SelectQueryBuilder<any, any, any>>(
  query: Query,
  columns: readonly string[],
  after: readonly CursorKey[] | undefined,
  direction: 'asc' | 'desc' = 'asc',
): Query {
  // biome-ignore lint/suspicious/noExplicitAny: any select query
  let ordered: SelectQueryBuilder<any, any, any> = after ? query.where(afterKeys(columns, after, direction)) : query;
  for (const column of columns) {
    ordered = ordered.orderBy(sql.ref(column), direction);
  }
  return ordered as Query;
}
