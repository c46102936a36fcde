import { Type } from '@sinclair/typebox';
import { CursorSchema, readCursor } from '../http/pagination.js';
import { MAX_PAGE, PageQuerySchema } from '../http/shared-schemas.js';
import type { CursorKey } from '../lib/cursors.js';
import { AppError } from '../lib/errors.js';

/**
 * `page` of a platform list that also takes `cursor`: 0-based, 0 when omitted. No schema default,
 * so that a page sent beside a cursor can be told from one left out, and refused.
 */
export const ListPageNumberSchema = (maximum = MAX_PAGE) =>
  Type.Integer({ minimum: 0, maximum, description: '0-based page, 0 when omitted; not together with cursor' });

/** Query parameters of a platform list that has always taken `page`: `page` or `cursor`, and `limit` (10 by default). */
export const PageOrCursorQueryProperties = {
  page: Type.Optional(ListPageNumberSchema()),
  limit: PageQuerySchema.properties.limit,
  cursor: Type.Optional(CursorSchema),
};

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
