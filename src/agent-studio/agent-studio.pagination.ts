import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { AppError } from '../http/errors.js';
import { CursorSchema, readCursor } from '../http/pagination.js';
import { MAX_OFFSET } from '../http/shared-schemas.js';
import type { CursorKey } from '../lib/cursors.js';

export const DEFAULT_LIST_LIMIT = 50;
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

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

/** A list's 200: the bare array, as upstream answers, and the next page's cursor in a header. */
export function PagedArraySchema<T extends TSchema>(item: T, order: string) {
  return Type.Array(item, {
    description: order,
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

/** What a list's cursor key holds: a timestamp or any text (ids, sort keys). */
export type CursorKeyKind = 'instant' | 'text';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

const fits: Record<CursorKeyKind, (key: CursorKey | undefined) => boolean> = {
  instant: (key) => typeof key === 'string' && INSTANT.test(key) && !Number.isNaN(Date.parse(key)),
  text: (key) => typeof key === 'string',
};

/**
 * The keys of a list's `cursor` (undefined without one). A cursor whose keys are not of the kinds
 * of this list's order (another list's, an edited one) is the same 422 as a malformed one, rather
 * than a value the database would refuse to compare. With `offset` too, it is refused.
 */
export function readListCursor(
  query: { cursor?: string; offset?: number },
  kinds: readonly CursorKeyKind[],
): CursorKey[] | undefined {
  if (query.cursor !== undefined && query.offset !== undefined) {
    throw AppError.invalid('cursor and offset cannot be combined', { location: 'query', path: ['cursor'], rule: 'cursor' });
  }
  const keys = readCursor(query.cursor, kinds.length);
  if (keys && !kinds.every((kind, index) => fits[kind](keys[index]))) {
    throw AppError.invalid('cursor is not a nextCursor this list returned', {
      location: 'query',
      path: ['cursor'],
      rule: 'cursor',
    });
  }
  return keys;
}
