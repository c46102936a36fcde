import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { requireIdParam } from './account.input.js';
import {
  type AccountRow,
  findAccountByDomain,
  findAccountById,
  findLiveAccountIds,
  findLiveAccountIdsByIdOrName,
} from './account.repository.js';

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

/** The organization's live accounts among `ids`; unknown ids are left out. */
export async function findLiveAccountIdsAmong(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  ids: readonly string[],
): Promise<string[]> {
  return findLiveAccountIds(db, organizationId, ids);
}

/**
 * The live account a customer writing from `domain` belongs to (its primary domain, else its
 * secondary one), or undefined.
 */
export async function findAccountOfDomain(db: Kysely<DB> | Transaction<DB>, organizationId: string, domain: string) {
  return findAccountByDomain(db, organizationId, domain);
}

/**
 * The one live account of the organization that `text` names, by id or by name (ignoring case);
 * undefined when none does or when several share the name. The messenger links a verified visitor
 * to the account its identity token names, and never creates one.
 */
export async function findAccountNamed(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  text: string,
): Promise<string | undefined> {
  const ids = await findLiveAccountIdsByIdOrName(db, organizationId, text);
  return ids.length === 1 ? ids[0] : undefined;
}
