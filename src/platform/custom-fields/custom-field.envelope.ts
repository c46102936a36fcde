import { type TSchema, Type } from '@sinclair/typebox';
import type { Clock } from '../../lib/clock.js';
import { NextCursorSchema, platformEnvelope } from '../platform.envelope.js';

/** `{data, status, message, timestamp}`: custom-field responses put `data` first, as upstream does. */
export function CustomFieldEnvelopeSchema<T extends TSchema>(data: T) {
  return Type.Object(
    {
      data,
      status: Type.Boolean(),
      message: Type.String(),
      timestamp: Type.String({ format: 'date-time' }),
    },
    { additionalProperties: false },
  );
}

/** The platform envelope with its keys in the custom-field order (the serializer follows the schema). */
export function customFieldEnvelope<T>(clock: Clock, data: T, message = 'Success') {
  const { status, timestamp } = platformEnvelope(clock, data, message);
  return { data, status, message, timestamp };
}

/** A page of fields: the custom-field envelope with `nextCursor` last. */
export function CustomFieldListEnvelopeSchema<T extends TSchema>(data: T) {
  return Type.Object(
    { ...CustomFieldEnvelopeSchema(data).properties, nextCursor: NextCursorSchema },
    { additionalProperties: false },
  );
}

export function customFieldListEnvelope<T>(clock: Clock, data: T, nextCursor: string | null) {
  return { ...customFieldEnvelope(clock, data), nextCursor };
}
