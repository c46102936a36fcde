import { Type } from '@sinclair/typebox';
import { CursorSchema, NEXT_CURSOR_HEADER } from '../http/pagination.js';
import { MAX_OFFSET } from '../http/shared-schemas.js';
import type { CursorKey } from '../lib/cursors.js';
import { type CursorKeyKind, readTypedCursor } from '../lib/cursors.js';
import { AppError } from '../lib/errors.js';

export const DEFAULT_LIST_LIMIT = 50;

/** `limit` and `cursor`, the page parameters of every agent-studio list that answers an array. */
export const listPageFields = () => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIST_LIMIT, description: 'Items per page' })),
  cursor: Type.Optional({
    ...CursorSchema,
    description: `The ${NEXT_CURSOR_HEADER} header of the previous page; omit for the first page`,
  }),
});

/** Kept for the lists that took it before cursors; no default, so a sent `offset` is told from none. */
export const OffsetSchema = Type.Integer({
  minimum: 0,
  maximum: MAX_OFFSET,
  description: 'Rows to skip (default 0); cannot be combined with cursor',
});

/**
 * The keys of a list's `cursor` (undefined without one), checked against the kinds of its order
 * (a mismatch is the same 422 as a malformed cursor). With `offset` too, it is refused.
 */
export function readListCursor(
  query: { cursor?: string; offset?: number },
  kinds: readonly CursorKeyKind[],
): CursorKey[] | undefined {
  if (query.cursor !== undefined && query.offset !== undefined) {
    throw AppError.invalid('cursor and offset cannot be combined', { location: 'query', path: ['cursor'], rule: 'cursor' });
  }
  return readTypedCursor(query.cursor, kinds);
}
