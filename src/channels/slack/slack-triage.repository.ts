import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Organizations whose Slack app is installed and active: the triage poster reads their logs. */
export async function listActiveSlackOrganizations(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('slack_installations')
    .select('organization_id')
    .where('status', '=', 'active')
    .orderBy('organization_id')
    .execute();
  return rows.map((row) => row.organization_id);
}

/**
 * Takes the organization's triage cursor until `until` unless another pass holds it (or it waits
 * out a rate limit): answers where it stands, or undefined. The row is made at 0 the first time.
 */
export async function claimTriageCursor(
  db: Kysely<DB>,
  organizationId: string,
  claim: { now: string; until: string },
): Promise<number | undefined> {
  await db
    .insertInto('slack_triage_cursors')
    .values({ organization_id: organizationId, posted_seq: 0, locked_until: null, updated_at: claim.now })
    .onConflict((conflict) => conflict.column('organization_id').doNothing())
    .execute();
  const row = await db
    .updateTable('slack_triage_cursors')
    .set({ locked_until: claim.until, updated_at: claim.now })
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]))
    .returning('posted_seq')
    .executeTakeFirst();
  return row ? Number(row.posted_seq) : undefined;
}

/** Moves the cursor to `seq` and holds it until `lockedUntil` (null: free), only while the pass's lease holds. */
export async function releaseTriageCursor(
  db: Db,
  organizationId: string,
  lease: string,
  release: { seq: number; lockedUntil: string | null; now: string },
): Promise<void> {
  await db
    .updateTable('slack_triage_cursors')
    .set({ posted_seq: release.seq, locked_until: release.lockedUntil, updated_at: release.now })
    .where('organization_id', '=', organizationId)
    .where('locked_until', '=', lease)
    .execute();
}

/** The organization's connected triage channels that show a team's tickets: the team's own, and those of every team. */
export function listTriageChannels(db: Db, organizationId: string, teamId: string | null) {
  let query = db
    .selectFrom('slack_channels')
    .select(['channel_id', 'team_id'])
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'triage')
    .where('status', '=', 'connected');
  query = teamId
    ? query.where((eb) => eb.or([eb('team_id', 'is', null), eb('team_id', '=', teamId)]))
    : query.where('team_id', 'is', null);
  return query.orderBy('channel_id').execute();
}

/** A ticket's triage posts (channel and `ts`), oldest first. */
export function listTriagePosts(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('slack_message_links')
    .select(['channel_id', 'message_ts'])
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('direction', '=', 'triage')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Keeps the (first) triage post on the ticket's thread row, made from its metadata if the channel has not yet. */
export async function saveTriagePostOnThread(
  db: Db,
  row: { ticket_id: string; organization_id: string; channel_id: string; thread_ts: string; created_at: string },
  triage: { channelId: string; ts: string },
): Promise<void> {
  await db
    .insertInto('slack_ticket_threads')
    .values({ ...row, triage_channel_id: triage.channelId, triage_ts: triage.ts })
    .onConflict((conflict) => conflict.column('ticket_id').doNothing())
    .execute();
  await db
    .updateTable('slack_ticket_threads')
    .set({ triage_channel_id: triage.channelId, triage_ts: triage.ts })
    .where('ticket_id', '=', row.ticket_id)
    .where('triage_ts', 'is', null)
    .execute();
}
