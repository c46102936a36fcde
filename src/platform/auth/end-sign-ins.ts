import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { deleteOpenAuthTokensOfUser } from './auth-token.repository.js';
import { deleteSessionsOfUser } from './session.repository.js';

/**
 * Ends everything that signs the user in, in the caller's transaction (a user being disabled):
 * every session, at once, and every open invitation or reset link.
 */
export async function endSignInsOfUser(trx: Transaction<DB>, clock: Clock, userId: string): Promise<void> {
  await deleteSessionsOfUser(trx, userId);
  await deleteOpenAuthTokensOfUser(trx, userId, clock.now().toISOString());
}
