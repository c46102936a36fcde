import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { SlackChannelTable, SlackMessageLinkTable, SlackTicketThreadTable } from './slack-channel.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export type SlackChannelRow = Selectable<SlackChannelTable>;
export type SlackTicketThreadRow = Selectable<SlackTicketThreadTable>;
export type SlackMessageLinkRow = Selectable<SlackMessageLinkTable>;

export function findSlackChannel(db: Db, organizationId: string, channelId: string) {
  return db
    .selectFrom('slack_channels')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('channel_id', '=', channelId)
    .executeTakeFirst();
}

export function listSlackChannelRows(db: Db, organizationId: string) {
  return db.selectFrom('slack_channels').selectAll().where('organization_id', '=', organizationId).orderBy('name').execute();
}

/**
 * A channel's settings, created the first time it is named and changed after: one statement, so two
 * processes naming the same channel at once keep one row.
 */
export function saveSlackChannel(
  db: Db,
  row: Insertable<SlackChannelTable>,
  changes: Updateable<SlackChannelTable>,
): Promise<SlackChannelRow> {
  return db
    .insertInto('slack_channels')
    .values(row)
    .onConflict((conflict) => conflict.columns(['organization_id', 'channel_id']).doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Slack refused the bot in the channel: answers whether it was connected until now (tell the admins once). */
export async function disconnectSlackChannel(
  db: Db,
  organizationId: string,
  channelId: string,
  reason: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('slack_channels')
    .set({ status: 'disconnected', disconnected_reason: reason, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('channel_id', '=', channelId)
    .where('status', '=', 'connected')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function insertSlackTicketThread(db: Db, row: Insertable<SlackTicketThreadTable>) {
  return db.insertInto('slack_ticket_threads').values(row).execute();
}

export function findSlackThreadOfTicket(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('slack_ticket_threads')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .executeTakeFirst();
}

/** Keeps a Slack message's place in a ticket; false when that message is already linked (a retry). */
export async function linkSlackMessage(db: Db, row: Insertable<SlackMessageLinkTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('slack_message_links')
    .values(row)
    .onConflict((conflict) => conflict.columns(['organization_id', 'channel_id', 'message_ts']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function findSlackMessageLink(db: Db, organizationId: string, channelId: string, messageTs: string) {
  return db
    .selectFrom('slack_message_links')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('channel_id', '=', channelId)
    .where('message_ts', '=', messageTs)
    .executeTakeFirst();
}
