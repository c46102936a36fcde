import { Type } from '@sinclair/typebox';
import { CursorSchema } from '../http/pagination.js';

export const DEFAULT_LIST_LIMIT = 50;

/** `limit` and `cursor`, the page parameters of every help-center list. */
export const listPageFields = (limitDescription = 'Items per page') => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIST_LIMIT, description: limitDescription })),
  cursor: Type.Optional(CursorSchema),
});
