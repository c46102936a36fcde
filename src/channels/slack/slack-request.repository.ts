import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { SlackRequestTable } from './slack-channel.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export type SlackRequestRow = Selectable<SlackRequestTable>;

/**
 * The open group a message of `slackUserId` joins: the person's latest request in the channel whose
 * `grouping_until` is not past at `messageAt`. (One channel's events are handled one at a time, in
 * order, so two messages of a person never group at once.)
 */
export function findOpenSlackRequest(
  db: Db,
  where: { organizationId: string; channelId: string; slackUserId: string; messageAt: string },
) {
  return db
    .selectFrom('slack_requests')
    .selectAll()
    .where('organization_id', '=', where.organizationId)
    .where('channel_id', '=', where.channelId)
    .where('slack_user_id', '=', where.slackUserId)
    .where('mode', '!=', 'reaction')
    .where('grouping_until', '>=', where.messageAt)
    .orderBy('grouping_until', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A new decision; false when one for the same first message exists already (the event handled twice). */
export async function insertSlackRequestOnce(db: Db, row: Insertable<SlackRequestTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('slack_requests')
    .values(row)
    .onConflict((conflict) => conflict.columns(['organization_id', 'channel_id', 'first_ts']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateSlackRequest(db: Db, id: string, changes: Updateable<SlackRequestTable>): Promise<void> {
  await db.updateTable('slack_requests').set(changes).where('id', '=', id).execute();
}

export function findSlackRequestByFirstTs(db: Db, organizationId: string, channelId: string, firstTs: string) {
  return db
    .selectFrom('slack_requests')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('channel_id', '=', channelId)
    .where('first_ts', '=', firstTs)
    .executeTakeFirst();
}
