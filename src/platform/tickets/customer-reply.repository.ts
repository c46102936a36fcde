import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate } from '../../db/dialect.js';

/**
 * The ticket's status, locked until the transaction ends, so a reopen and a concurrent close are
 * applied one after the other. `for no key update`: comments that reference the ticket can still
 * be inserted meanwhile. SQLite's single writer serialises as it is.
 */
export async function lockTicketStatus(trx: Transaction<DB>, organizationId: string, ticketId: string) {
  return forNoKeyUpdate(
    trx,
    trx
      .selectFrom('tickets')
      .select(['id', 'organization_id', 'team_id', 'status_id', 'closed_at'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', ticketId)
      .where('deleted_at', 'is', null),
  ).executeTakeFirst();
}
