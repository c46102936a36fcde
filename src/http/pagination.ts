import { Type } from '@sinclair/typebox';
import { type CursorKey, decodeCursor } from '../lib/cursors.js';
import { AppError } from './errors.js';

/** `cursor` of a keyset-paged list: the `nextCursor` of the page before. */
export const CursorSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'nextCursor of the previous page; omit for the first page',
});

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
