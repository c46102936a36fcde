import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { requireIdParam } from './account.input.js';
import { type AccountRow, findAccountById } from './account.repository.js';

export const ACCOUNT_NOT_FOUND = 'Account not found!';

/**
 * The live account `id` of the organization: a blank id is a 400, anything else that is not one
 * (another organization's account included) the 404 every account-scoped route answers.
 */
export async function requireAccount(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  id: string | undefined,
): Promise<AccountRow> {
  const account = await findAccountById(db, organizationId, requireIdParam(id, 'Account ID is required!'));
  if (!account) {
    throw AppError.notFound(ACCOUNT_NOT_FOUND);
  }
  return account;
}

/** Whether `id` names a live account of the organization: a ticket's `accountId`, or a list's filter. */
export async function accountExists(db: Kysely<DB> | Transaction<DB>, organizationId: string, id: string): Promise<boolean> {
  return (await findAccountById(db, organizationId, id)) !== undefined;
}
