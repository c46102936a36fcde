import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { type CursorKey, decodeCursor } from '../lib/cursors.js';
import { AppError } from '../lib/errors.js';

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

/** The header that carries the next page's cursor of lists answering a bare array. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** A bare-array 200 (as upstream answers), its next cursor declared as a header for the OpenAPI document. */
export function PagedArraySchema<T extends TSchema>(item: T, description?: string) {
  return Type.Array(item, {
    ...(description === undefined ? {} : { description }),
    headers: {
      [NEXT_CURSOR_HEADER]: Type.String({ description: 'Pass as `cursor` for the next page; absent on the last page' }),
    },
  });
}

/** The page's items as the body; its next cursor, if any, in the header. */
export function sendPage<T>(reply: FastifyReply, page: { items: T[]; nextCursor: string | null }): T[] {
  if (page.nextCursor !== null) {
    reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
  }
  return page.items;
}
