import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { findContactById, findLiveContactByEmail } from './customer-contact.repository.js';

// How other features find a customer contact (the help center's sign-in): narrow answers, in
// the caller's transaction, without customer-contact.service (which reaches accounts and events).

export interface ContactIdentity {
  id: string;
  email: string;
  /** First and last name. */
  name: string;
}

export function contactName(row: { first_name: string; last_name: string | null }): string {
  return row.last_name ? `${row.first_name} ${row.last_name}` : row.first_name;
}

/** The organization's live contact with this email (compared case-insensitively), or null. */
export async function findLiveContactIdentityByEmail(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  email: string,
): Promise<ContactIdentity | null> {
  const row = await findLiveContactByEmail(db, organizationId, email);
  return row ? { id: row.id, email: row.email, name: contactName(row) } : null;
}

/** The organization's live contact `id`, or null (deleted, or another organization's). */
export async function findLiveContactIdentityById(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  id: string,
): Promise<ContactIdentity | null> {
  const row = await findContactById(db, organizationId, id);
  return row ? { id: row.id, email: row.email, name: contactName(row) } : null;
}
