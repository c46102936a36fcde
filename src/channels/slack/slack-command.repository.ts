import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The ticket whose Slack thread starts at this message, or whose triage post it is: a reaction on
 * either names the ticket even before any message link was kept for it. One statement, each half
 * on its index (`slack_ticket_threads_thread`, `slack_ticket_threads_triage`).
 */
export async function findTicketIdOfSlackThreadMessage(
  db: Db,
  organizationId: string,
  channelId: string,
  messageTs: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('slack_ticket_threads')
    .select('ticket_id')
    .where('organization_id', '=', organizationId)
    .where('channel_id', '=', channelId)
    .where('thread_ts', '=', messageTs)
    .unionAll(
      db
        .selectFrom('slack_ticket_threads')
        .select('ticket_id')
        .where('organization_id', '=', organizationId)
        .where('triage_channel_id', '=', channelId)
        .where('triage_ts', '=', messageTs),
    )
    .executeTakeFirst();
  return row?.ticket_id;
}
