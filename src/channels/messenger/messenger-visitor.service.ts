import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { openWidgetSecret } from '../../help-center/help-centers/help-center-widget.service.js';
import type { AttemptCounter } from '../../http/attempt-counters.js';
import { countAgainstBudgets } from '../../lib/attempt-budgets.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../lib/secret-token.js';
import { findAccountNamed } from '../../platform/accounts/account.lookup.js';
import { findLiveContactIdentityById } from '../../platform/contacts/customer-contact.lookup.js';
import { findOrCreateContactByEmail, joinContactToAccount } from '../../platform/contacts/customer-contact.service.js';
import { flushDeferredEvents } from '../../platform/events/event.recorder.js';
import { RateLimited } from './messenger.errors.js';
import { type VerifiedIdentity, verifyIdentityToken } from './messenger-identity.js';
import {
  findVisitorByTokenHash,
  insertVisitor,
  touchVisitor,
  upgradeVisitor,
  type VisitorRow,
} from './messenger-visitor.repository.js';
import type { MessengerHelpCenter } from './messenger-widget.js';

export interface MessengerDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  /** The key sealing stored credentials: the widget secret opens with it. */
  secretKey: Buffer;
  /** The app's attempt counters (Redis, else the database), shared by every process. */
  attempts: AttemptCounter;
  config: Pick<Config, 'MESSENGER_VISITORS_PER_ADDRESS' | 'MESSENGER_VISITOR_WINDOW_SECONDS'>;
}

/** A visitor of one help center's messenger, verified when linked to a customer contact. */
export interface Visitor {
  id: string;
  verified: boolean;
  contact: { id: string; name: string; email: string } | null;
}

/** A visitor's `last_seen_at` is written at most this often, so reading rarely writes. */
const SEEN_EVERY_MS = 5 * 60_000;
const UNAUTHORIZED = 'A valid visitor token is required';

/** The visitor as the API answers it: the contact's name and email, never its id. */
export function visitorAnswer(visitor: Visitor) {
  return {
    id: visitor.id,
    verified: visitor.verified,
    contact: visitor.contact ? { name: visitor.contact.name, email: visitor.contact.email } : null,
  };
}

export function unauthorized(message = UNAUTHORIZED): AppError {
  return new AppError({ code: 'UNAUTHENTICATED', message });
}

/**
 * One new visitor counted against the client address; past `MESSENGER_VISITORS_PER_ADDRESS` in the
 * window it is refused (`RateLimited`) and counts nothing (see `countAgainstBudgets`).
 */
export async function countNewVisitor(deps: Pick<MessengerDeps, 'attempts' | 'config'>, address: string): Promise<void> {
  const max = deps.config.MESSENGER_VISITORS_PER_ADDRESS;
  if (max === 0) {
    return;
  }
  const budgets = [{ key: `messenger-visitors-address:${address}`, max }];
  const verdict = await countAgainstBudgets(deps.attempts, budgets, deps.config.MESSENGER_VISITOR_WINDOW_SECONDS * 1000);
  if (verdict.exceeded) {
    throw new RateLimited('Too many new visitors from this address; retry later', verdict.retryAfterSeconds);
  }
}

/** A new anonymous visitor of the help center, and its token (answered this once, kept only hashed). */
export async function createVisitor(deps: MessengerDeps, helpCenter: MessengerHelpCenter) {
  const token = generateSecretToken();
  const id = deps.ids.ulid();
  const now = deps.clock.now().toISOString();
  await insertVisitor(deps.db, {
    id,
    organization_id: helpCenter.site.organizationId,
    help_center_id: helpCenter.site.id,
    token_hash: hashSecretToken(token),
    contact_id: null,
    external_subject: null,
    created_at: now,
    last_seen_at: now,
  });
  return { visitorToken: token, visitor: visitorAnswer({ id, verified: false, contact: null }) };
}

/** The visitor row holding the token, when it is this help center's; else undefined. */
async function visitorRowOf(db: Kysely<DB>, helpCenter: MessengerHelpCenter, token: string) {
  if (!looksLikeSecretToken(token)) {
    return undefined;
  }
  const row = await findVisitorByTokenHash(db, hashSecretToken(token));
  const ours = row && row.help_center_id === helpCenter.site.id && row.organization_id === helpCenter.site.organizationId;
  return ours ? row : undefined;
}

async function toVisitor(db: Kysely<DB> | Transaction<DB>, row: VisitorRow): Promise<Visitor> {
  const contact = row.contact_id ? await findLiveContactIdentityById(db, row.organization_id, row.contact_id) : null;
  return { id: row.id, verified: contact !== null, contact };
}

/**
 * The visitor holding `token` in this help center: a missing, malformed or unknown token, or
 * another help center's (of this organization or another), is a 401. Its activity is recorded at
 * most every few minutes.
 */
export async function requireVisitor(
  deps: Pick<MessengerDeps, 'db' | 'clock'>,
  helpCenter: MessengerHelpCenter,
  token: string | undefined,
): Promise<Visitor> {
  const row = token === undefined ? undefined : await visitorRowOf(deps.db, helpCenter, token);
  if (!row) {
    throw unauthorized();
  }
  const now = deps.clock.now();
  if (Date.parse(row.last_seen_at) < now.getTime() - SEEN_EVERY_MS) {
    await touchVisitor(deps.db, row.id, now.toISOString());
  }
  return toVisitor(deps.db, row);
}

/** The visitor when a token is given (401 when it is not a valid one of this help center), else null: for reads anyone may make. */
export async function optionalVisitor(
  deps: Pick<MessengerDeps, 'db' | 'clock'>,
  helpCenter: MessengerHelpCenter,
  token: string | undefined,
): Promise<Visitor | null> {
  return token === undefined ? null : requireVisitor(deps, helpCenter, token);
}

/** `Ada Lovelace` as a contact's first and last name. */
function contactNames(name: string | null): { firstName?: string; lastName?: string | null } {
  if (!name) {
    return {};
  }
  const space = name.indexOf(' ');
  return space < 0 ? { firstName: name } : { firstName: name.slice(0, space), lastName: name.slice(space + 1).trim() || null };
}

/**
 * Verifies the host's identity token with the help center's widget secret and answers a new token
 * for the verified visitor: the current visitor's row when the request carries its token and it is
 * anonymous (or already this subject), keeping its id so its conversation carries over; a new row
 * otherwise. The organization's customer contact with the token's email is linked, made on first
 * sight, and joined to the account the token names when exactly one matches (accounts are never
 * made from a token). Any refusal is a 401 that writes nothing.
 */
export async function identifyVisitor(
  deps: MessengerDeps,
  helpCenter: MessengerHelpCenter,
  input: { token: string; currentVisitorToken: string | undefined },
) {
  const { organizationId, id: helpCenterId } = helpCenter.site;
  const secret = await openWidgetSecret(deps, organizationId, helpCenterId);
  const identity = secret === null ? null : await verifyIdentityToken(input.token, secret, deps.clock.now());
  if (!identity) {
    throw unauthorized('The identity token is not valid for this messenger');
  }
  const current = input.currentVisitorToken ? await visitorRowOf(deps.db, helpCenter, input.currentVisitorToken) : undefined;
  const visitorToken = generateSecretToken();
  const now = deps.clock.now().toISOString();
  const visitor = await deps.db.transaction().execute(async (trx) => {
    const contactId = await linkContact(trx, deps, helpCenter, identity);
    const upgraded =
      current !== undefined &&
      input.currentVisitorToken !== undefined &&
      (await upgradeVisitor(
        trx,
        { id: current.id, tokenHash: hashSecretToken(input.currentVisitorToken), subject: identity.subject },
        { tokenHash: hashSecretToken(visitorToken), contactId, now },
      ));
    const id = upgraded ? current.id : deps.ids.ulid();
    if (!upgraded) {
      await insertVisitor(trx, {
        id,
        organization_id: organizationId,
        help_center_id: helpCenterId,
        token_hash: hashSecretToken(visitorToken),
        contact_id: contactId,
        external_subject: identity.subject,
        created_at: now,
        last_seen_at: now,
      });
    }
    await flushDeferredEvents(trx, deps, organizationId);
    return toVisitor(trx, {
      id,
      organization_id: organizationId,
      help_center_id: helpCenterId,
      contact_id: contactId,
      external_subject: identity.subject,
      created_at: now,
      last_seen_at: now,
    });
  });
  return { visitorToken, visitor: visitorAnswer(visitor) };
}

/** The contact for the identity, made on first sight; joined to the account it names when one matches. */
async function linkContact(
  trx: Transaction<DB>,
  deps: MessengerDeps,
  helpCenter: MessengerHelpCenter,
  identity: VerifiedIdentity,
): Promise<string> {
  const { organizationId } = helpCenter.site;
  const accountId = identity.account ? await findAccountNamed(trx, organizationId, identity.account) : undefined;
  const contact = await findOrCreateContactByEmail(
    trx,
    deps,
    organizationId,
    identity.email,
    { type: 'system', id: null, name: `Messenger of ${helpCenter.site.name}` },
    { ...contactNames(identity.name), accountId: accountId ?? null },
  );
  if (accountId) {
    await joinContactToAccount(trx, deps, organizationId, { contactId: contact.id, accountId });
  }
  return contact.id;
}
