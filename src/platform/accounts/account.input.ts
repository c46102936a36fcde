import { AppError } from '../../lib/errors.js';
import { requireWebUrl } from '../attachments/attachment.service.js';

/**
 * A path id as the contract wants it checked: left out (`/accounts/contacts/`) or blank is the
 * 400 `message` (`Contact ID is required!`), before anything is looked up.
 */
export function requireIdParam(id: string | undefined, message: string): string {
  const trimmed = id?.trim() ?? '';
  if (trimmed === '') {
    throw AppError.invalid(message);
  }
  return trimmed;
}

/** An optional http(s) URL field (`logo`, `website`, `avatarUrl`): kept as sent, trimmed; else a 400 naming it. */
export function webUrlField<T extends string | null | undefined>(value: T, field: string): T {
  if (typeof value !== 'string') {
    return value;
  }
  requireWebUrl(value, [field]);
  return value.trim() as T;
}

/** Each name once, in the order given. */
export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
