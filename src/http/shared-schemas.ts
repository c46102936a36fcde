import { type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import { HTTP_URL_FORMAT } from '../lib/http-url.js';
import { OBJECT_ID_PATTERN, ULID_PATTERN } from '../lib/ids.js';

/** A string enum as one `enum` keyword, so a bad value gets one clear message. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([Type.Null(), schema]);

export const UlidSchema = Type.String({ pattern: ULID_PATTERN, description: 'ULID (26 characters)' });
export const ObjectIdSchema = Type.String({ pattern: OBJECT_ID_PATTERN, description: 'Object identifier (24 hex digits)' });
export const UuidSchema = Type.String({ format: 'uuid', description: 'UUID' });
export const TimestampSchema = Type.String({ format: 'date-time' });
/**
 * A URL that a page may render (an avatar, a logo, a link): absolute http or https only, so
 * `javascript:`, `data:` and other schemes are a validation error naming the field.
 */
export const HttpUrlSchema = Type.String({ format: HTTP_URL_FORMAT, maxLength: 2048, description: 'An http or https URL' });

/**
 * Upper bounds of `page` and `offset`: far past any real list, and small enough that
 * `page * limit` (limit ≤ 100) stays a safe integer that both databases take as an OFFSET.
 */
export const MAX_PAGE = 1_000_000_000;
export const MAX_OFFSET = 100_000_000_000;

/** A 0-based page number. */
export const PageNumberSchema = (description = '0-based page') =>
  Type.Integer({ minimum: 0, maximum: MAX_PAGE, default: 0, description });

/** Page parameters of platform lists: `page` is 0-based. */
export const PageQuerySchema = Type.Object({
  page: Type.Optional(PageNumberSchema()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});
