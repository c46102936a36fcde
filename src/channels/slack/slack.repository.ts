import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { SlackEventTable, SlackInstallationTable } from './slack.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export type SlackInstallationRow = Selectable<SlackInstallationTable>;

export function findSlackInstallation(db: Db, organizationId: string) {
  return db.selectFrom('slack_installations').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
}

export function findSlackInstallationByTeam(db: Db, teamId: string) {
  return db.selectFrom('slack_installations').selectAll().where('team_id', '=', teamId).executeTakeFirst();
}

/**
 * The organization's installation, as Slack has just granted it: one statement, a reinstall (a new
 * token, new scopes) replaces the last. A workspace already installed for another organization
 * breaks the unique `team_id` and writes nothing.
 */
export async function saveSlackInstallation(db: Db, row: Insertable<SlackInstallationTable>): Promise<SlackInstallationRow> {
  return db
    .insertInto('slack_installations')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('organization_id').doUpdateSet({
        team_id: row.team_id,
        team_name: row.team_name,
        enterprise_id: row.enterprise_id ?? null,
        app_id: row.app_id,
        bot_user_id: row.bot_user_id,
        bot_token_encrypted: row.bot_token_encrypted,
        scopes: row.scopes,
        installed_by: row.installed_by,
        status: row.status,
        revoked_reason: null,
        updated_at: row.updated_at,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The installation stops (Slack told us its token is gone); answers whether it was active. */
export async function revokeSlackInstallation(db: Db, teamId: string, reason: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('slack_installations')
    .set({ status: 'revoked', revoked_reason: reason, updated_at: now })
    .where('team_id', '=', teamId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Keeps an event once: false when its `event_id` is already kept (Slack's retry, or a replay). */
export async function insertSlackEventOnce(db: Db, row: Insertable<SlackEventTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('slack_events')
    .values(row)
    .onConflict((conflict) => conflict.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
