import type { Insertable, Kysely, Transaction } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { UserType } from '../users/user.table.js';
import type { UserSessionTable } from './auth.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const SESSION_COLUMNS = ['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip_address'] as const;

export async function insertSession(db: Db, row: Insertable<UserSessionTable>): Promise<void> {
  await db.insertInto('user_sessions').values(row).execute();
}

export interface SessionPrincipalRow {
  id: string;
  organization_id: string;
  user_id: string;
  user_type: UserType;
  last_seen_at: string;
  expires_at: string;
}

/** Run on every request signed in with a cookie: compiled once. */
const sessionByTokenHashStatement = prepareQuery<{ tokenHash: string }, SessionPrincipalRow>((db: Db, param) =>
  db
    .selectFrom('user_sessions')
    .innerJoin('users', 'users.id', 'user_sessions.user_id')
    .select([
      'user_sessions.id',
      'user_sessions.organization_id',
      'user_sessions.user_id',
      'users.user_type',
      'user_sessions.last_seen_at',
      'user_sessions.expires_at',
    ])
    .where('user_sessions.token_hash', '=', param('tokenHash'))
    .where('users.deleted_at', 'is', null)
    .where('users.disabled_at', 'is', null),
);

/** The session with this token hash, its user present and enabled; whether it has expired is the caller's to judge. */
export async function findSessionByTokenHash(db: Db, tokenHash: string): Promise<SessionPrincipalRow | undefined> {
  const { rows } = await sessionByTokenHashStatement.execute(db, { tokenHash });
  return rows[0];
}

/** Records activity, unless another request of the session already did since `staleBefore`. */
export async function touchSession(db: Db, sessionId: string, at: string, staleBefore: string): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set({ last_seen_at: at })
    .where('id', '=', sessionId)
    .where('last_seen_at', '<', staleBefore)
    .execute();
}

export async function findSessionOfUser(db: Db, userId: string, sessionId: string) {
  return db
    .selectFrom('user_sessions')
    .select(SESSION_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

export type SessionRow = NonNullable<Awaited<ReturnType<typeof findSessionOfUser>>>;

/**
 * A page of the user's sessions still in force (not past `expires_at`, seen since `idleSince`),
 * newest first; `limit + 1` rows tell that a next page exists.
 */
export async function listLiveSessionsOfUser(
  db: Db,
  userId: string,
  live: { now: string; idleSince: string },
  page: { after?: CursorKey[]; limit: number },
): Promise<SessionRow[]> {
  const query = db
    .selectFrom('user_sessions')
    .select(SESSION_COLUMNS)
    .where('user_id', '=', userId)
    .where('expires_at', '>', live.now)
    .where('last_seen_at', '>', live.idleSince);
  return inKeysetOrder(query, ['created_at', 'id'], page.after, 'desc')
    .limit(page.limit + 1)
    .execute();
}

/** Ends one session of the user; answers it, or undefined when the user has no such session. */
export async function deleteSessionOfUser(db: Db, userId: string, sessionId: string): Promise<SessionRow | undefined> {
  return db
    .deleteFrom('user_sessions')
    .where('user_id', '=', userId)
    .where('id', '=', sessionId)
    .returning(SESSION_COLUMNS)
    .executeTakeFirst();
}

/** Ends every session of the user (disabled, or a new password). */
export async function deleteSessionsOfUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
}

/** Forgets the user's sessions that have ended, so their rows do not pile up. */
export async function deleteEndedSessionsOfUser(db: Db, userId: string, live: { now: string; idleSince: string }): Promise<void> {
  await db
    .deleteFrom('user_sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', live.now), eb('last_seen_at', '<=', live.idleSince)]))
    .execute();
}
