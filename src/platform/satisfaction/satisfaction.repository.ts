import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { SatisfactionSettingsTable, SatisfactionSurveyTable, SurveyRating, SurveySkipReason } from './satisfaction.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export type SatisfactionSettingsRow = Selectable<SatisfactionSettingsTable>;
/** A survey as read: never its token's hash. */
export type SatisfactionSurveyRow = Omit<Selectable<SatisfactionSurveyTable>, 'token_hash'>;

const SURVEY_COLUMNS = [
  'id',
  'organization_id',
  'ticket_id',
  'team_id',
  'contact_id',
  'requestor_email',
  'status',
  'skip_reason',
  'manual',
  'send_at',
  'sent_at',
  'expires_at',
  'rating',
  'comment',
  'rated_at',
  'reopened_at',
  'created_at',
] as const;

export function findSettings(db: Db, organizationId: string, teamId: string) {
  return db
    .selectFrom('satisfaction_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
}

export async function upsertSettings(db: Db, row: SatisfactionSettingsRow): Promise<void> {
  const { team_id: _teamId, organization_id: _organizationId, ...changes } = row;
  await db
    .insertInto('satisfaction_settings')
    .values(row)
    .onConflict((conflict) => conflict.column('team_id').doUpdateSet(changes))
    .execute();
}

/** The team's cooldown per contact, in days (0 without settings). */
export async function findCooldownDays(db: Db, organizationId: string, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('satisfaction_settings')
    .select('cooldown_days')
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return Number(row?.cooldown_days ?? 0);
}

/** Which of `ids` are the team's ticket tags. */
export async function findTeamTagIds(db: Db, teamId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db.selectFrom('team_tags').select('id').where('team_id', '=', teamId).where('id', 'in', ids).execute();
  return rows.map((row) => row.id);
}

/** Which of `ids` are the team's priorities. */
export async function findTeamPriorityIds(db: Db, teamId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .selectFrom('ticket_options')
    .select('id')
    .where('team_id', '=', teamId)
    .where('kind', '=', 'priority')
    .where('id', 'in', ids)
    .execute();
  return rows.map((row) => row.id);
}

/** Whether each status counts as closed. */
export async function findClosedStatuses(db: Db, statusIds: readonly string[]): Promise<Set<string>> {
  const rows = await db.selectFrom('ticket_options').select(['id', 'is_closed']).where('id', 'in', statusIds).execute();
  return new Set(rows.filter((row) => readBoolean(row.is_closed)).map((row) => row.id));
}

/** What a survey names of its ticket. */
export function findSurveyedTicket(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('tickets')
    .innerJoin('ticket_options as status', 'status.id', 'tickets.status_id')
    .select([
      'tickets.id',
      'tickets.organization_id',
      'tickets.team_id',
      'tickets.ticket_identifier',
      'tickets.title',
      'tickets.requestor_email',
      'tickets.customer_contact_id',
      'tickets.priority_id',
      'tickets.is_private',
      'status.is_closed',
    ])
    .where('tickets.id', '=', ticketId)
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.deleted_at', 'is', null)
    .executeTakeFirst();
}
export type SurveyedTicketRow = NonNullable<Awaited<ReturnType<typeof findSurveyedTicket>>>;

/** Inserts a survey unless the ticket has an open one (the partial unique index); false then. */
export async function insertSurvey(db: Db, row: SatisfactionSurveyTable): Promise<boolean> {
  const inserted = await db
    .insertInto('satisfaction_surveys')
    .values(row)
    .onConflict((conflict) => conflict.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The pending surveys due at `now`, oldest first. */
export function listDueSurveys(db: Db, now: string, limit: number) {
  return db
    .selectFrom('satisfaction_surveys')
    .select(['id', 'organization_id', 'ticket_id'])
    .where('status', '=', 'pending')
    .where('send_at', '<=', now)
    .orderBy('send_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Moves a pending survey to sent with its link; false when another process took it first. */
export async function claimSurvey(
  db: Db,
  id: string,
  link: { sentAt: string; tokenHash: string; expiresAt: string },
): Promise<boolean> {
  const taken = await db
    .updateTable('satisfaction_surveys')
    .set({ status: 'sent', sent_at: link.sentAt, token_hash: link.tokenHash, expires_at: link.expiresAt })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return taken !== undefined;
}

/** A survey that will not go out, and why (pending, or claimed in this transaction). */
export async function skipSurvey(db: Db, id: string, reason: SurveySkipReason): Promise<void> {
  await db
    .updateTable('satisfaction_surveys')
    .set({ status: 'skipped', skip_reason: reason, sent_at: null, token_hash: null, expires_at: null })
    .where('id', '=', id)
    .execute();
}

/**
 * Records a survey sent to the address now, unless one went to it after `cutoff`: one statement
 * (an upsert whose update is conditional), so two processes sending to the same address at once
 * cannot both pass (the row, or its unique key, makes the second wait and see the first's time).
 */
export async function takeContactCooldown(
  db: Db,
  organizationId: string,
  email: string,
  now: string,
  cutoff: string,
): Promise<boolean> {
  const row = await db
    .insertInto('satisfaction_contact_cooldowns')
    .values({ organization_id: organizationId, email, last_sent_at: now })
    .onConflict((conflict) =>
      conflict
        .columns(['organization_id', 'email'])
        .doUpdateSet((eb) => ({ last_sent_at: eb.ref('excluded.last_sent_at') }))
        .where('satisfaction_contact_cooldowns.last_sent_at', '<=', cutoff),
    )
    .returning('email')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The ticket reopened: its open survey's links stop working, and one not yet sent never is. The
 * caller holds the ticket's row lock.
 */
export async function markSurveysReopened(db: Db, ticketId: string, at: string): Promise<void> {
  await db
    .updateTable('satisfaction_surveys')
    .set({ status: 'skipped', skip_reason: 'reopened' })
    .where('ticket_id', '=', ticketId)
    .where('status', '=', 'pending')
    .execute();
  await db
    .updateTable('satisfaction_surveys')
    .set({ reopened_at: at })
    .where('ticket_id', '=', ticketId)
    .where('reopened_at', 'is', null)
    .execute();
}

/** The ticket's open survey (pending, sent or rated, and not superseded by a reopen). */
export function findOpenSurvey(db: Db, ticketId: string) {
  return db
    .selectFrom('satisfaction_surveys')
    .select(SURVEY_COLUMNS)
    .where('ticket_id', '=', ticketId)
    .where('reopened_at', 'is', null)
    .where('status', '<>', 'skipped')
    .executeTakeFirst();
}

/** The ticket's latest survey, whatever became of it. */
export function findLatestSurvey(db: Db, ticketId: string) {
  return db
    .selectFrom('satisfaction_surveys')
    .select(SURVEY_COLUMNS)
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findSurveyByTokenHash(db: Db, tokenHash: string) {
  return db.selectFrom('satisfaction_surveys').select(SURVEY_COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Records the answer while the link still holds (sent or rated, not reopened, not expired): one
 * conditional update, so a reopen that commits first leaves nothing written. Answers the survey.
 */
export function rateSurvey(
  db: Db,
  id: string,
  tokenHash: string,
  answer: { rating: SurveyRating; comment: string | null; at: string },
) {
  return db
    .updateTable('satisfaction_surveys')
    .set({ status: 'rated', rating: answer.rating, comment: answer.comment, rated_at: answer.at })
    .where('id', '=', id)
    .where('token_hash', '=', tokenHash)
    .where('status', 'in', ['sent', 'rated'])
    .where('reopened_at', 'is', null)
    .where('expires_at', '>', answer.at)
    .returning(SURVEY_COLUMNS)
    .executeTakeFirst();
}
