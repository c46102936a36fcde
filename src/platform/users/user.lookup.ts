import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { findUserById, findUsersByEmail } from './user.repository.js';

/**
 * The id of the live user of the organization that `ref` names, by id or by email (any case);
 * undefined when it names none (another organization's user included). What other features check
 * a user reference with (a ticket's assignee, a list's assignee filter), without the user service's
 * dependencies.
 */
export async function findOrganizationUserId(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  ref: { id: string } | { email: string },
): Promise<string | undefined> {
  if ('id' in ref) {
    return (await findUserById(db, organizationId, ref.id))?.id;
  }
  const [user] = await findUsersByEmail(db, ref.email, organizationId);
  return user?.id;
}
