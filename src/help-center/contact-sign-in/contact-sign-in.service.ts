import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { enqueueEmail } from '../../delivery/outbox/outbox.service.js';
import type { AttemptCounter } from '../../http/attempt-counters.js';
import { countAgainstBudgets } from '../../lib/attempt-budgets.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../lib/secret-token.js';
import { contactName, findLiveContactIdentityByEmail } from '../../platform/contacts/customer-contact.lookup.js';
import { signInLinkEmail } from './contact-sign-in.emails.js';
import {
  endContactSessionByTokenHash,
  findSessionContact,
  insertContactSession,
  insertSignInLink,
  touchContactSession,
  useSignInLink,
} from './contact-sign-in.repository.js';

export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60_000;
export const CONTACT_SESSION_LIFETIME_MS = 30 * 24 * 60 * 60_000;
/** Link requests counted per email and per client address over this window. */
export const LINK_REQUEST_WINDOW_MS = 15 * 60_000;
export const LINK_REQUESTS_PER_EMAIL = 5;
export const LINK_REQUESTS_PER_ADDRESS = 20;
/** A session's `last_seen_at` is written at most this often, so reading pages rarely writes. */
const SEEN_EVERY_MS = 60 * 60_000;

export interface ContactSignInDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  /** The app's attempt counters (Redis, or the database's `attempt_counters`), shared by every process. */
  attempts: AttemptCounter;
}

export interface SignInLinkRequest {
  organizationId: string;
  helpCenter: { id: string; name: string; slug: string };
  /** As typed: normalised here. */
  email: string;
  /** The help center's address, without a trailing slash: the link is `${linkBase}/sign-in/${token}`. */
  linkBase: string;
  /** The client's address, for its rate limit. */
  requestAddress: string;
  /** Where to go once signed in, a path the caller checked is within the help center: the link carries it as `?next=`. */
  returnPath?: string;
}

function linkOf(request: SignInLinkRequest, token: string): string {
  const link = `${request.linkBase}/sign-in/${token}`;
  return request.returnPath ? `${link}?next=${encodeURIComponent(request.returnPath)}` : link;
}

export interface SignedInContact {
  contactId: string;
  email: string;
  name: string;
}

/** A valid e-mail address as HTML defines it (what `<input type="email">` accepts). */
const EMAIL_PATTERN =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const EMAIL_MAX_LENGTH = 254;

/** The email as compared and counted (trimmed, lower case), or null when it cannot be an address. */
export function normaliseSignInEmail(email: string): string | null {
  const trimmed = email.trim().toLowerCase();
  return trimmed.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(trimmed) ? trimmed : null;
}

/**
 * One request added to the email's and the address's counters; past either limit the request is
 * given back (refused requests count nothing) and refused. A store that cannot be reached counts
 * nothing and refuses nothing, as the app's other limits do.
 */
async function withinRequestLimits(deps: ContactSignInDeps, email: string, address: string): Promise<boolean> {
  const budgets = [
    { key: `help-center-sign-in-email:${email}`, max: LINK_REQUESTS_PER_EMAIL },
    { key: `help-center-sign-in-address:${address}`, max: LINK_REQUESTS_PER_ADDRESS },
  ];
  return !(await countAgainstBudgets(deps.attempts, budgets, LINK_REQUEST_WINDOW_MS)).exceeded;
}

/**
 * Emails a sign-in link to the organization's customer contact with this email. It answers the
 * same, in about the same time, whether the email is a contact's or not and whether a limit was
 * reached: the token is made and hashed before anyone is looked up, so an unknown email skips only
 * the two writes. A malformed email is refused (400), which says nothing about anyone.
 */
export async function requestSignInLink(deps: ContactSignInDeps, request: SignInLinkRequest): Promise<void> {
  const email = normaliseSignInEmail(request.email);
  if (!email) {
    throw AppError.invalid('Enter a valid email address', { location: 'body', path: ['email'], rule: 'format' });
  }
  const token = generateSecretToken();
  const tokenHash = hashSecretToken(token);
  const allowed = await withinRequestLimits(deps, email, request.requestAddress);
  const contact = await findLiveContactIdentityByEmail(deps.db, request.organizationId, email);
  if (!allowed || !contact) {
    return;
  }
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS).toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await insertSignInLink(trx, {
      token_hash: tokenHash,
      organization_id: request.organizationId,
      help_center_id: request.helpCenter.id,
      contact_id: contact.id,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
    });
    await enqueueEmail(trx, deps, {
      organizationId: request.organizationId,
      dedupeKey: `help-center-sign-in:${deps.ids.ulid()}`,
      to: contact.email,
      ...signInLinkEmail({
        helpCenterName: request.helpCenter.name,
        link: linkOf(request, token),
        expiresAt,
      }),
    });
  });
}

/**
 * Uses a link of this help center up and starts the contact's session: one conditional UPDATE
 * decides, so two concurrent redemptions (in two processes) start one session. A forged, used,
 * expired or other help center's link, or a contact deleted since, answers null and writes nothing.
 */
export async function redeemSignInLink(
  deps: Pick<ContactSignInDeps, 'db' | 'clock'>,
  input: { organizationId: string; helpCenterId: string; token: string },
): Promise<{ sessionToken: string; expiresAt: string } | null> {
  if (!looksLikeSecretToken(input.token)) {
    return null;
  }
  const now = deps.clock.now();
  const sessionToken = generateSecretToken();
  const expiresAt = new Date(now.getTime() + CONTACT_SESSION_LIFETIME_MS).toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const used = await useSignInLink(trx, {
      tokenHash: hashSecretToken(input.token),
      organizationId: input.organizationId,
      helpCenterId: input.helpCenterId,
      now: now.toISOString(),
    });
    if (!used) {
      return null;
    }
    await insertContactSession(trx, {
      token_hash: hashSecretToken(sessionToken),
      organization_id: input.organizationId,
      help_center_id: input.helpCenterId,
      contact_id: used.contact_id,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expiresAt,
      ended_at: null,
    });
    return { sessionToken, expiresAt };
  });
}

/**
 * The contact signed in by this session token, in this help center of this organization; null for
 * a token that is malformed, unknown, ended, expired, another help center's or organization's, or
 * whose contact has been deleted. Activity is recorded at most once an hour.
 */
export async function contactOfSession(
  deps: Pick<ContactSignInDeps, 'db' | 'clock'>,
  input: { organizationId: string; helpCenterId: string; sessionToken: string },
): Promise<SignedInContact | null> {
  if (!looksLikeSecretToken(input.sessionToken)) {
    return null;
  }
  const now = deps.clock.now();
  const tokenHash = hashSecretToken(input.sessionToken);
  const row = await findSessionContact(deps.db, {
    tokenHash,
    organizationId: input.organizationId,
    helpCenterId: input.helpCenterId,
    now: now.toISOString(),
  });
  if (!row) {
    return null;
  }
  const staleBefore = new Date(now.getTime() - SEEN_EVERY_MS);
  if (Date.parse(row.last_seen_at) < staleBefore.getTime()) {
    await touchContactSession(deps.db, tokenHash, now.toISOString(), staleBefore.toISOString());
  }
  return { contactId: row.contact_id, email: row.email, name: contactName(row) };
}

/** Signs the session out; a malformed, unknown or already ended token changes nothing. */
export async function endContactSession(deps: Pick<ContactSignInDeps, 'db' | 'clock'>, sessionToken: string): Promise<void> {
  if (!looksLikeSecretToken(sessionToken)) {
    return;
  }
  await endContactSessionByTokenHash(deps.db, hashSecretToken(sessionToken), deps.clock.now().toISOString());
}
