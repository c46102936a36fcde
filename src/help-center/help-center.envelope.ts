import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { NormalizedError } from '../http/errors.js';

/** `{data, message}`: how the help center answers a success. */
export function HelpCenterEnvelopeSchema<T extends TSchema>(data: T) {
  return Type.Object({ data, message: Type.String() }, { additionalProperties: false });
}

export function helpCenterEnvelope<T>(data: T, message: string) {
  return { data, message };
}

/** `{data, nextCursor, message}`: a page of a list; `nextCursor` is null on the last page. */
export function HelpCenterListEnvelopeSchema<T extends TSchema>(item: T, order: string) {
  return Type.Object(
    {
      data: Type.Array(item, { description: order }),
      nextCursor: Type.Union([Type.Null(), Type.String()], {
        description: 'Pass as `cursor` for the next page; null on the last page',
      }),
      message: Type.String(),
    },
    { additionalProperties: false },
  );
}

export function helpCenterListEnvelope<T>(page: { items: T[]; nextCursor: string | null }, message: string) {
  return { data: page.items, nextCursor: page.nextCursor, message };
}

export const HelpCenterErrorSchema = Type.Object(
  { message: Type.String(), statusCode: Type.Integer() },
  { additionalProperties: false, title: 'HelpCenterError' },
);

export function helpCenterErrorResponses(statuses: number[]) {
  const all = new Set([...statuses, 401, 500]);
  return Object.fromEntries([...all].sort().map((status) => [status, HelpCenterErrorSchema]));
}

export function renderHelpCenterError(error: NormalizedError, _request: FastifyRequest) {
  const message = error.status >= 500 ? 'Internal server error' : error.message;
  return { status: error.status, body: { message, statusCode: error.status } };
}
