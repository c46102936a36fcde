import { AppError } from '../../lib/errors.js';

/** The trimmed text of a body field; only spaces is a 400, like an empty one. */
export function nonBlank(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '') {
    throw AppError.invalid(`${field} must not be blank`, { location: 'body', path: [field], rule: 'minLength' });
  }
  return trimmed;
}

/** As `nonBlank`, letting `null` (clear) and `undefined` (unchanged) through. */
export function optionalNonBlank<T extends string | null | undefined>(value: T, field: string): T {
  return (typeof value === 'string' ? nonBlank(value, field) : value) as T;
}
