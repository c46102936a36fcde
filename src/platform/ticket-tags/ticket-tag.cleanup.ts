import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { deleteTagFromTickets } from './ticket-tag.repository.js';

/**
 * Takes the tag off every ticket that has it, in the transaction of the team tags' change (the tag
 * is deleted, or is no longer a ticket tag); the caller records it on the tickets' timelines.
 */
export async function takeTagOffAllTickets(trx: Transaction<DB>, tagId: string): Promise<void> {
  await deleteTagFromTickets(trx, tagId);
}
