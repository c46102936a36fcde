import { AppError } from '../lib/errors.js';
import type { Principal } from '../lib/principal.js';

export const ACCESS_DENIED = 'User does not have access to this resource!';

export function isOrgAdmin(principal: Principal): boolean {
  return principal.userType === 'ORG_ADMIN';
}

/** Organization admins only; everyone else gets the platform's 403. */
export function requireOrgAdmin(principal: Principal): void {
  if (!isOrgAdmin(principal)) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
}
