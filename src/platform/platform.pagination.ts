import { Type } from '@sinclair/typebox';
import { CursorSchema } from '../http/pagination.js';
import { MAX_PAGE, PageQuerySchema } from '../http/shared-schemas.js';

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
