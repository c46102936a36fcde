import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

/** `cursor` of a keyset-paged list: the `nextCursor` of the page before. */
export const CursorSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'nextCursor of the previous page; omit for the first page',
});

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
