import { Type } from '@sinclair/typebox';
import { AppError } from '../http/errors.js';
import { CursorSchema, readCursor } from '../http/pagination.js';
import type { CursorKey } from '../lib/cursors.js';

export const DEFAULT_LIST_LIMIT = 50;

/** `limit` and `cursor`, the page parameters of every help-center list. */
export const listPageFields = (limitDescription = 'Items per page') => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIST_LIMIT, description: limitDescription })),
  cursor: Type.Optional(CursorSchema),
});

/** What a list's cursor key holds: a timestamp, an integer, or any text (ids, names). */
export type CursorKeyKind = 'instant' | 'integer' | 'text';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

const fits: Record<CursorKeyKind, (key: CursorKey | undefined) => boolean> = {
  instant: (key) => typeof key === 'string' && INSTANT.test(key) && !Number.isNaN(Date.parse(key)),
  integer: (key) => Number.isSafeInteger(key),
  text: (key) => typeof key === 'string',
};

/**
 * The keys of a list's `cursor` (undefined without one). A cursor whose keys are not of the kinds
 * of this list's order (another list's, an edited one) is the same 400 as a malformed one, rather
 * than a value the database would refuse to compare.
 */
export function readListCursor(cursor: string | undefined, kinds: readonly CursorKeyKind[]): CursorKey[] | undefined {
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
