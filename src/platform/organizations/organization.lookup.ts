import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { findOrganizationById, lockOrganizationRow } from './organization.repository.js';

/**
 * The organization `id` (its name and times), or undefined: how other features read the
 * organization they work for, in their own transaction.
 */
export async function findOrganization(db: Kysely<DB> | Transaction<DB>, id: string) {
  return findOrganizationById(db, id);
}

/**
 * Holds the organization's row until the transaction ends, so that writers of the organization's
 * whole set-up (a configuration import) take turns: each reads what the one before it committed.
 * Answers whether the organization exists.
 */
export async function lockOrganization(trx: Transaction<DB>, id: string): Promise<boolean> {
  return (await lockOrganizationRow(trx, id)) !== undefined;
}
