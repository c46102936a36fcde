import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { findOrganizationById } from './organization.repository.js';

/**
 * The organization `id` (its name and times), or undefined: how other features read the
 * organization they work for, in their own transaction.
 */
export async function findOrganization(db: Kysely<DB> | Transaction<DB>, id: string) {
  return findOrganizationById(db, id);
}
