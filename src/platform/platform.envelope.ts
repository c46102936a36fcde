import { type TSchema, Type } from '@sinclair/typebox';
import { Nullable } from '../http/shared-schemas.js';
import type { Clock } from '../lib/clock.js';

/** `{status, message, timestamp, data}`: how the support platform wraps a success. */
export function PlatformEnvelopeSchema<T extends TSchema>(data: T) {
  return Type.Object(
    {
      status: Type.Boolean(),
      message: Type.String(),
      timestamp: Type.String({ format: 'date-time' }),
      data,
    },
    { additionalProperties: false },
  );
}

export function platformEnvelope<T>(clock: Clock, data: T, message = 'Success') {
  return { status: true as const, message, timestamp: isoTimestamp(clock.now()), data };
}

let printedAt = Number.NaN;
let printed = '';

/** An instant as ISO text, printed once per millisecond: every answer carries one, and busy ones share it. */
function isoTimestamp(at: Date): string {
  const ms = at.getTime();
  if (ms !== printedAt) {
    printed = at.toISOString();
    printedAt = ms;
  }
  return printed;
}

/** `nextCursor` of a keyset-paged list: what the next page's `cursor` takes. */
export const NextCursorSchema = Nullable(
  Type.String({
    description: 'Pass as cursor for the next page (whether this one was read by page or by cursor); null on the last page',
  }),
);

/** The envelope of a keyset-paged list: `data` as the contract has it, `nextCursor` beside it. */
export function PlatformListEnvelopeSchema<T extends TSchema>(data: T) {
  const { status, message, timestamp } = PlatformEnvelopeSchema(data).properties;
  return Type.Object({ status, message, timestamp, data, nextCursor: NextCursorSchema }, { additionalProperties: false });
}

export function platformListEnvelope<T>(clock: Clock, data: T, nextCursor: string | null, message = 'Success') {
  return { ...platformEnvelope(clock, data, message), nextCursor };
}

/**
 * Lists answered as a bare array (accounts, contacts, notes, as upstream) keep the array and give
 * the next page's cursor in this header, absent on the last page.
 */
/** NestJS-style error body: `error` is the HTTP reason phrase. */
export const PlatformErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    message: Type.String(),
    error: Type.String(),
  },
  { additionalProperties: false, title: 'PlatformError' },
);

/** The contract's second error shape, used by every custom-field operation. */
export const CustomFieldErrorSchema = Type.Object(
  {
    message: Type.String(),
    statusCode: Type.Integer(),
    timestamp: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'CustomFieldError' },
);

/** Error responses for a route's schema; 401 and 500 are always possible and always listed. */
export function platformErrorResponses(statuses: number[], schema: TSchema = PlatformErrorSchema) {
  const all = new Set([...statuses, 401, 500]);
  return Object.fromEntries([...all].sort().map((status) => [status, schema]));
}
