import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import { type Config, publicBaseUrl } from '../../config.js';
import type { DB } from '../../db/database.js';
import { enqueueEmail } from '../../delivery/outbox/outbox.service.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../lib/secret-token.js';
import { requireOrgAdmin } from '../authorization.js';
import { findOrganization } from '../organizations/organization.lookup.js';
import { findLiveUser } from '../users/user.lookup.js';
import { invitationEmail, passwordResetEmail } from './auth.emails.js';
import type { SetPasswordWithTokenSchema } from './auth.schemas.js';
import type { AuthTokenPurpose } from './auth.table.js';
import { consumeAuthToken, deleteOpenAuthTokensOfUser, findAuthToken, insertAuthToken } from './auth-token.repository.js';
import { findUsersWithPasswordByEmail, lockUserForCredentials, setUserPassword } from './credential.repository.js';
import { checkNewPassword, hashPassword } from './password.js';
import { deleteSessionsOfUser } from './session.repository.js';
import { type ClientInfo, DISABLED, signedInAnswer, startSession } from './session.service.js';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;
export const PASSWORD_RESET_LIFETIME_MS = 60 * 60_000;

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Config;
}

/** Where each link sends the browser: pages of the console. */
const PAGES: Record<AuthTokenPurpose, string> = {
  invitation: '/app/accept-invite',
  password_reset: '/app/reset-password',
};

function linkFor(config: Config, purpose: AuthTokenPurpose, token: string): string {
  return `${publicBaseUrl(config, 'platform')}${PAGES[purpose]}?token=${token}`;
}

/**
 * A new link for the user, in the caller's transaction, which holds the user's row: every older
 * link that is still open is deleted, so only the newest works.
 */
async function issueLink(
  trx: Transaction<DB>,
  deps: Deps,
  user: { organizationId: string; userId: string },
  purpose: AuthTokenPurpose,
  createdByUserId: string | null,
) {
  const now = deps.clock.now();
  const lifetime = purpose === 'invitation' ? INVITATION_LIFETIME_MS : PASSWORD_RESET_LIFETIME_MS;
  const token = generateSecretToken();
  const id = deps.ids.ulid();
  const expiresAt = new Date(now.getTime() + lifetime).toISOString();
  await deleteOpenAuthTokensOfUser(trx, user.userId, now.toISOString());
  await insertAuthToken(trx, {
    id,
    organization_id: user.organizationId,
    user_id: user.userId,
    purpose,
    token_hash: hashSecretToken(token),
    created_by_user_id: createdByUserId,
    created_at: now.toISOString(),
    expires_at: expiresAt,
    used_at: null,
  });
  return { id, link: linkFor(deps.config, purpose, token), expiresAt };
}

/** The user locked for a new invitation: present in the organization, and not disabled. */
async function lockInvitee(trx: Transaction<DB>, organizationId: string, userId: string) {
  const user = await lockUserForCredentials(trx, organizationId, userId);
  if (!user) {
    throw AppError.notFound('User not found!');
  }
  if (user.disabled_at) {
    throw AppError.conflict('This user is disabled: enable them before inviting them');
  }
  return user;
}

/**
 * Emails the user a link to choose a password (admins only). The email is queued in the same
 * transaction as the link, and a newer invitation or reset link replaces any open one.
 */
export async function inviteUser(deps: Deps, principal: Principal, userId: string) {
  requireOrgAdmin(principal);
  return deps.db.transaction().execute(async (trx) => {
    const user = await lockInvitee(trx, principal.organizationId, userId);
    const [organization, inviter] = await Promise.all([
      findOrganization(trx, principal.organizationId),
      findLiveUser(trx, principal.organizationId, principal.userId),
    ]);
    const issued = await issueLink(
      trx,
      deps,
      { organizationId: principal.organizationId, userId: user.id },
      'invitation',
      principal.userId,
    );
    await enqueueEmail(trx, deps, {
      organizationId: principal.organizationId,
      dedupeKey: `invitation:${issued.id}`,
      to: user.email,
      ...invitationEmail({
        organizationName: organization?.name ?? '',
        inviterName: inviter?.name ?? null,
        link: issued.link,
        expiresAt: issued.expiresAt,
      }),
    });
    return { userId: user.id, email: user.email, expiresAt: issued.expiresAt };
  });
}

/** An invitation link for the operator to hand over (`switchboard users invite`); nothing is emailed. */
export async function createInvitationLink(deps: Deps, organizationId: string, userId: string) {
  return deps.db.transaction().execute(async (trx) => {
    const user = await lockInvitee(trx, organizationId, userId);
    const issued = await issueLink(trx, deps, { organizationId, userId: user.id }, 'invitation', null);
    return { userId: user.id, email: user.email, link: issued.link, expiresAt: issued.expiresAt };
  });
}

/**
 * Emails a reset link to each user with this email who has a password and is not disabled (one per
 * organization). Answers nothing either way, so the request cannot tell whether an address is
 * known; users who never accepted an invitation need a new invitation instead.
 */
export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  const users = await findUsersWithPasswordByEmail(deps.db, email);
  for (const found of users) {
    await deps.db.transaction().execute(async (trx) => {
      const user = await lockUserForCredentials(trx, found.organization_id, found.id);
      if (!user || user.disabled_at) {
        return;
      }
      const issued = await issueLink(
        trx,
        deps,
        { organizationId: found.organization_id, userId: user.id },
        'password_reset',
        null,
      );
      await enqueueEmail(trx, deps, {
        organizationId: found.organization_id,
        dedupeKey: `password-reset:${issued.id}`,
        to: user.email,
        ...passwordResetEmail({ organizationName: found.organization_name, link: issued.link, expiresAt: issued.expiresAt }),
      });
    });
  }
}

function linkRefused(message: string): AppError {
  return AppError.invalid(message, { location: 'body', path: ['token'], rule: 'token' });
}

/** Why a link cannot be used, in words: unknown (or replaced), used, or expired. */
async function refusal(db: Kysely<DB> | Transaction<DB>, tokenHash: string, purpose: AuthTokenPurpose, now: Date) {
  return refusalOf(await findAuthToken(db, tokenHash, purpose), now);
}

function refusalOf(state: { used_at: string | null; expires_at: string } | undefined, now: Date): AppError {
  if (!state) {
    return linkRefused('This link is not valid: it may have been replaced by a newer one');
  }
  if (state.used_at) {
    return linkRefused('This link was already used');
  }
  if (Date.parse(state.expires_at) <= now.getTime()) {
    return linkRefused('This link has expired: ask for a new one');
  }
  return linkRefused('This link is not valid');
}

/**
 * Sets the password of the link's user and signs them in: the link is used up, the user's other
 * open links deleted and their other sessions ended, all in one transaction. The password is
 * checked and hashed before it starts; a refused link or password writes nothing.
 */
async function setPasswordWithLink(
  deps: Deps,
  purpose: AuthTokenPurpose,
  input: Static<typeof SetPasswordWithTokenSchema>,
  client: ClientInfo,
) {
  const now = deps.clock.now();
  if (!looksLikeSecretToken(input.token)) {
    throw linkRefused('This link is not valid');
  }
  const tokenHash = hashSecretToken(input.token);
  const owner = await findUsableLink(deps, tokenHash, purpose, now);
  await checkNewPassword(input.password, owner.email);
  const passwordHash = await hashPassword(input.password);
  const user = { organizationId: owner.organization_id, userId: owner.user_id };
  // The user's row first, then the link: the order every credential change takes (a new link,
  // disabling), so two of them wait for each other instead of deadlocking.
  const started = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockUserForCredentials(trx, user.organizationId, user.userId);
    if (!locked || locked.disabled_at) {
      throw AppError.forbidden(DISABLED);
    }
    if (!(await consumeAuthToken(trx, tokenHash, purpose, now.toISOString()))) {
      throw await refusal(trx, tokenHash, purpose, now);
    }
    await setUserPassword(trx, user.userId, passwordHash, now.toISOString());
    await deleteOpenAuthTokensOfUser(trx, user.userId, now.toISOString());
    await deleteSessionsOfUser(trx, user.userId);
    return startSession(trx, deps, user, client);
  });
  return signedInAnswer(deps.db, user, started.token, started.row);
}

/** A link that can be used, with its user's email (the password must not be it); one that cannot is refused here. */
async function findUsableLink(deps: Deps, tokenHash: string, purpose: AuthTokenPurpose, now: Date) {
  const state = await findAuthToken(deps.db, tokenHash, purpose);
  if (!state || state.used_at || Date.parse(state.expires_at) <= now.getTime()) {
    throw refusalOf(state, now);
  }
  return state;
}

export function acceptInvitation(deps: Deps, input: Static<typeof SetPasswordWithTokenSchema>, client: ClientInfo) {
  return setPasswordWithLink(deps, 'invitation', input, client);
}

export function confirmPasswordReset(deps: Deps, input: Static<typeof SetPasswordWithTokenSchema>, client: ClientInfo) {
  return setPasswordWithLink(deps, 'password_reset', input, client);
}
