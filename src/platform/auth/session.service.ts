import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../lib/secret-token.js';
import { requireOrgAdmin } from '../authorization.js';
import { getMe, requireUser } from '../users/user.service.js';
import type { ListSessionsQuerySchema, SignInSchema } from './auth.schemas.js';
import { findSignInCandidates, lockUserForCredentials, setUserPassword } from './credential.repository.js';
import { hashOfNoPassword, hashPassword, needsRehash, verifyPassword } from './password.js';
import { SESSION_IDLE_MS, toSession } from './session.presenter.js';
import {
  deleteEndedSessionsOfUser,
  deleteSessionOfUser,
  findSessionByTokenHash,
  findSessionOfUser,
  insertSession,
  listLiveSessionsOfUser,
  type SessionRow,
  touchSession,
} from './session.repository.js';

/** A session ends 30 days after sign-in, however active (and after `SESSION_IDLE_MS` without a request). */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60_000;
/** `last_seen_at` is written at most this often per session, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;
const USER_AGENT_MAX = 512;

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/** What the session list shows of the browser that signed in. */
export interface ClientInfo {
  userAgent: string | undefined;
  ipAddress: string;
}

/** The budget of failed sign-ins of the request's address and account (see `http/rate-limits.ts`). */
export interface SignInAttempts {
  /** Counts this attempt, before its password is checked; throws RATE_LIMITED past the budget. */
  count(): Promise<void>;
  /** Gives the counted attempt back: its password was right, so it is no failure. */
  giveBack(): Promise<void>;
}

const INVALID_CREDENTIALS = 'Invalid email or password';
export const DISABLED = 'This user is disabled: ask an admin of your organization';

function liveWindow(now: Date) {
  return { now: now.toISOString(), idleSince: new Date(now.getTime() - SESSION_IDLE_MS).toISOString() };
}

/**
 * Opens a session for the user in the caller's transaction (sign-in, an accepted invitation, a new
 * password) and forgets the user's sessions that have ended. Answers the token, which only the
 * cookie keeps.
 */
export async function startSession(
  trx: Kysely<DB> | Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory },
  user: { organizationId: string; userId: string },
  client: ClientInfo,
): Promise<{ token: string; row: SessionRow }> {
  const now = deps.clock.now();
  await deleteEndedSessionsOfUser(trx, user.userId, liveWindow(now));
  const token = generateSecretToken();
  const row: SessionRow = {
    id: deps.ids.ulid(),
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    user_agent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    ip_address: client.ipAddress,
  };
  await insertSession(trx, {
    ...row,
    organization_id: user.organizationId,
    user_id: user.userId,
    token_hash: hashSecretToken(token),
  });
  return { token, row };
}

/** What a signed-in browser learns about itself: its user and organization, and its session. */
export async function signedInAnswer(
  db: Kysely<DB>,
  user: { organizationId: string; userId: string },
  token: string,
  row: SessionRow,
) {
  const me = await getMe(db, user);
  return { token, answer: { ...me, session: toSession(row, row.id) } };
}

/**
 * Email and password to a session. An unknown email and a wrong password get the same answer,
 * after the same work (a password check against a dummy hash). An email that is a user in several
 * organizations signs in where the password matches; `organizationId` chooses when it matches in
 * more than one. Every attempt counts against the address and the account before its password is
 * checked (past the budget, 429), and is given back once the password proves right: failures stay.
 */
export async function signIn(deps: Deps, attempts: SignInAttempts, input: Static<typeof SignInSchema>, client: ClientInfo) {
  await attempts.count();
  const candidates = await findSignInCandidates(deps.db, input.email, input.organizationId);
  const matches: typeof candidates = [];
  for (const candidate of candidates) {
    if (candidate.password_hash && (await verifyPassword(input.password, candidate.password_hash))) {
      matches.push(candidate);
    }
  }
  if (candidates.length === 0) {
    await verifyPassword(input.password, await hashOfNoPassword());
  }
  const [user] = matches;
  if (!user) {
    throw new AppError({ code: 'UNAUTHENTICATED', message: INVALID_CREDENTIALS });
  }
  await attempts.giveBack();
  if (matches.length > 1) {
    throw AppError.conflict('This email and password sign in to several organizations: send organizationId to choose one');
  }
  const owner = { organizationId: user.organization_id, userId: user.id };
  // Under the user's row lock, so that a session cannot be opened beside a concurrent disabling.
  const started = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockUserForCredentials(trx, owner.organizationId, owner.userId);
    if (!locked || locked.disabled_at) {
      throw AppError.forbidden(DISABLED);
    }
    if (user.password_hash && needsRehash(user.password_hash)) {
      await setUserPassword(trx, user.id, await hashPassword(input.password), null);
    }
    return startSession(trx, deps, owner, client);
  });
  return signedInAnswer(deps.db, owner, started.token, started.row);
}

/**
 * The principal of a session cookie's token, or null: unknown, ended (idle for 12 hours, or 30
 * days old), or its user disabled or deleted. Records activity at most once a minute.
 */
export async function authenticateSession(
  deps: { db: Kysely<DB>; clock: Clock },
  token: string,
  options: { touch?: boolean } = {},
): Promise<Principal | null> {
  if (!looksLikeSecretToken(token)) {
    return null;
  }
  const row = await findSessionByTokenHash(deps.db, hashSecretToken(token));
  if (!row) {
    return null;
  }
  const now = deps.clock.now().getTime();
  const lastSeen = Date.parse(row.last_seen_at);
  if (now >= Date.parse(row.expires_at) || now >= lastSeen + SESSION_IDLE_MS) {
    return null;
  }
  // A request is activity; a long-lived event stream checking that its session still holds is not
  // (`touch: false`), or an open tab would keep a session from ever going idle.
  if (options.touch !== false && now - lastSeen >= TOUCH_EVERY_MS) {
    await touchSession(deps.db, row.id, new Date(now).toISOString(), new Date(now - TOUCH_EVERY_MS).toISOString());
  }
  return { organizationId: row.organization_id, userId: row.user_id, userType: row.user_type, sessionId: row.id };
}

/** Ends the caller's session; an API-key caller has none, and nothing happens. */
export async function signOut(db: Kysely<DB>, principal: Principal) {
  if (principal.sessionId) {
    await deleteSessionOfUser(db, principal.userId, principal.sessionId);
  }
  return { sessionId: principal.sessionId ?? null };
}

/** The caller's user and organization, and its session when it is signed in with one (null for an API key). */
export async function getCurrentSession(deps: { db: Kysely<DB> }, principal: Principal) {
  const me = await getMe(deps.db, principal);
  const row = principal.sessionId ? await findSessionOfUser(deps.db, principal.userId, principal.sessionId) : undefined;
  return { ...me, session: row ? toSession(row, principal.sessionId) : null };
}

/** The caller's sessions still in force, newest first, the current one marked. */
export async function listSessions(
  deps: { db: Kysely<DB>; clock: Clock },
  principal: Principal,
  query: Static<typeof ListSessionsQuerySchema>,
) {
  const limit = query.limit ?? 50;
  const after = readCursor(query.cursor, 2);
  const rows = await listLiveSessionsOfUser(deps.db, principal.userId, liveWindow(deps.clock.now()), { after, limit });
  const { items, nextCursor } = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  return { items: items.map((row) => toSession(row, principal.sessionId)), nextCursor };
}

/** Ends one of the caller's sessions (another user's is a 404, like a missing one). */
export async function revokeSession(db: Kysely<DB>, principal: Principal, sessionId: string) {
  const row = await deleteSessionOfUser(db, principal.userId, sessionId);
  if (!row) {
    throw AppError.notFound('Session not found!');
  }
  return toSession(row, principal.sessionId);
}

/** An admin's view of a user's sessions still in force, newest first (another organization's user is a 404). */
export async function listSessionsOfUser(
  deps: { db: Kysely<DB>; clock: Clock },
  principal: Principal,
  userId: string,
  query: Static<typeof ListSessionsQuerySchema>,
) {
  requireOrgAdmin(principal);
  const user = await requireUser(deps.db, principal.organizationId, userId);
  const limit = query.limit ?? 50;
  const after = readCursor(query.cursor, 2);
  const rows = await listLiveSessionsOfUser(deps.db, user.id, liveWindow(deps.clock.now()), { after, limit });
  const { items, nextCursor } = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  return { items: items.map((row) => toSession(row, principal.sessionId)), nextCursor };
}

/** An admin ends one session of a user at once: its next request is refused. */
export async function revokeSessionOfUser(db: Kysely<DB>, principal: Principal, userId: string, sessionId: string) {
  requireOrgAdmin(principal);
  const user = await requireUser(db, principal.organizationId, userId);
  const row = await deleteSessionOfUser(db, user.id, sessionId);
  if (!row) {
    throw AppError.notFound('Session not found!');
  }
  return toSession(row, principal.sessionId);
}
