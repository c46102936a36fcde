import { type TSchema, Type } from '@sinclair/typebox';
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
  return { status: true as const, message, timestamp: clock.now().toISOString(), data };
}

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
