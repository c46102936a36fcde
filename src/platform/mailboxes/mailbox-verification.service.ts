import type { Kysely, Transaction } from 'kysely';
import { type Config, publicBaseUrl } from '../../config.js';
import type { DB } from '../../db/database.js';
import { translateDbError } from '../../db/errors.js';
import { enqueueEmail } from '../../delivery/outbox/outbox.service.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../lib/secret-token.js';
import { requireOrgAdmin } from '../authorization.js';
import { findOrganization } from '../organizations/organization.lookup.js';
import { findAddressClaims, findMailboxById, lockMailbox } from './mailbox.repository.js';
import type { MailboxVerificationMethod } from './mailbox.table.js';
import { DnsLookupError, domainVerificationRecord, type TxtLookup } from './mailbox-dns.js';
import { mailboxVerificationEmail } from './mailbox-verification.emails.js';
import type { VerificationPage } from './mailbox-verification.page.js';
import {
  consumeVerificationLink,
  countVerificationLinksSince,
  ensureMailboxDomain,
  expireOpenVerificationLinks,
  findLatestVerificationLinks,
  findMailboxDomains,
  findUnverifiedMailboxes,
  findVerificationLink,
  insertVerificationLink,
  markMailboxDomainVerified,
  markMailboxVerified,
  type VerificationLinkRow,
} from './mailbox-verification.repository.js';

/**
 * An organization proves an address is its own before Switchboard receives, sends or recognises
 * mail as its own through it: by a link emailed to the address and confirmed by whoever reads it,
 * or by a TXT record on the address's domain, which verifies every mailbox of the organization on
 * that domain. Until then any number of organizations may claim an address; the first to prove it
 * has it (a partial unique index), and the others' claims stay unverified.
 */

export interface VerificationDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Config;
}

/** How long a link works. */
export const LINK_LIFETIME_MS = 3 * 24 * 60 * 60_000;
/** Links an organization may send to one address in a day: enough to retry, too few to mail anyone much. */
export const LINKS_PER_DAY = 5;
const DAY_MS = 24 * 60 * 60_000;
/** The page's own path; its link carries the token in `?token=`, which request logs redact. */
export const VERIFICATION_PAGE_PATH = '/v1/mailbox-verification';

const NOT_FOUND = 'Mailbox not found!';
export const VERIFIED_ELSEWHERE = 'This address is verified by another organization';

export function domainOfAddress(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/** What the API shows of a mailbox's verification. */
export interface MailboxVerification {
  status: 'verified' | 'unverified';
  method: MailboxVerificationMethod | null;
  verifiedAt: string | null;
  linkSentAt: string | null;
  linkExpiresAt: string | null;
  dnsRecord: { name: string; type: 'TXT'; value: string } | null;
}

type VerificationColumns = { id: string; address: string; verified_at: string | null; verification_method: string | null };

type VerificationContext = {
  links: Awaited<ReturnType<typeof findLatestVerificationLinks>>;
  domains: Awaited<ReturnType<typeof findMailboxDomains>>;
};

/** What the verification of a page of mailboxes shows beyond their rows: the links and domain tokens of the unverified ones. */
export async function loadVerificationContext(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  mailboxes: readonly VerificationColumns[],
): Promise<VerificationContext> {
  const unverified = mailboxes.filter((mailbox) => mailbox.verified_at === null);
  const links = await findLatestVerificationLinks(
    db,
    unverified.map((mailbox) => mailbox.id),
  );
  const domains = await findMailboxDomains(db, organizationId, [
    ...new Set(unverified.map((mailbox) => domainOfAddress(mailbox.address))),
  ]);
  return { links, domains };
}

export function verificationOf(mailbox: VerificationColumns, context: VerificationContext): MailboxVerification {
  const domain = domainOfAddress(mailbox.address);
  if (mailbox.verified_at !== null) {
    return {
      status: 'verified',
      method: mailbox.verification_method as MailboxVerificationMethod | null,
      verifiedAt: mailbox.verified_at,
      linkSentAt: null,
      linkExpiresAt: null,
      dnsRecord: null,
    };
  }
  // Newest first: the first row of a mailbox is its latest link.
  const link = context.links.find((row) => row.mailbox_id === mailbox.id);
  const claim = context.domains.find((row) => row.domain === domain);
  return {
    status: 'unverified',
    method: null,
    verifiedAt: null,
    linkSentAt: link?.created_at ?? null,
    linkExpiresAt: link?.expires_at ?? null,
    dnsRecord: claim ? domainVerificationRecord(domain, claim.token) : null,
  };
}

type ClaimedMailbox = { id: string; organization_id: string; address: string };

/** Whether another mailbox (so another organization's: one claims an address once) has the address verified. */
async function isVerifiedElsewhere(db: Kysely<DB> | Transaction<DB>, mailbox: { id: string; address: string }): Promise<boolean> {
  const claims = await findAddressClaims(db, mailbox.address);
  return claims.some((claim) => claim.id !== mailbox.id && claim.verified_at !== null);
}

/**
 * Emails a new link to the mailbox's address in the caller's transaction (which holds the
 * mailbox's row); its older open links stop working. Answers how long to wait instead when the
 * organization sent `LINKS_PER_DAY` to the address in the last day.
 */
async function issueLink(
  trx: Transaction<DB>,
  deps: VerificationDeps,
  mailbox: ClaimedMailbox,
  createdById: string | null,
): Promise<{ retryAfterSeconds: number } | null> {
  const now = deps.clock.now();
  const sent = await countVerificationLinksSince(
    trx,
    mailbox.organization_id,
    mailbox.address,
    new Date(now.getTime() - DAY_MS).toISOString(),
  );
  if (sent.count >= LINKS_PER_DAY && sent.oldest !== null) {
    return { retryAfterSeconds: Math.max(1, Math.ceil((Date.parse(sent.oldest) + DAY_MS - now.getTime()) / 1000)) };
  }
  await expireOpenVerificationLinks(trx, mailbox.id, now.toISOString());
  const token = generateSecretToken();
  const id = deps.ids.ulid();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS).toISOString();
  await insertVerificationLink(trx, {
    id,
    organization_id: mailbox.organization_id,
    mailbox_id: mailbox.id,
    address: mailbox.address,
    token_hash: hashSecretToken(token),
    created_by_id: createdById,
    created_at: now.toISOString(),
    expires_at: expiresAt,
    used_at: null,
  });
  const organization = await findOrganization(trx, mailbox.organization_id);
  await enqueueEmail(trx, deps, {
    organizationId: mailbox.organization_id,
    dedupeKey: `mailbox-verification:${id}`,
    to: mailbox.address,
    ...mailboxVerificationEmail({
      organizationName: organization?.name ?? '',
      address: mailbox.address,
      link: `${publicBaseUrl(deps.config, 'platform')}${VERIFICATION_PAGE_PATH}?token=${token}`,
      expiresAt,
    }),
  });
  return null;
}

/**
 * What a new mailbox, or one given a new address, goes through in the caller's transaction:
 * verified at once when its organization verified the address's domain, else a link is emailed to
 * it (none when the day's links to the address are spent; the admin asks again later).
 */
export async function beginVerification(
  trx: Transaction<DB>,
  deps: VerificationDeps,
  mailbox: ClaimedMailbox,
  createdById: string | null,
): Promise<void> {
  const at = deps.clock.now().toISOString();
  const domain = domainOfAddress(mailbox.address);
  await ensureMailboxDomain(trx, { organizationId: mailbox.organization_id, domain, token: generateSecretToken(), at });
  const [claim] = await findMailboxDomains(trx, mailbox.organization_id, [domain]);
  if (claim?.verified_at) {
    await markMailboxVerified(trx, mailbox.id, { at, method: 'dns' });
    return;
  }
  await issueLink(trx, deps, mailbox, createdById);
}

/** Emails a new link to an unverified mailbox; admins only. Answers how long to wait when too many were sent. */
export async function resendVerificationLink(
  deps: VerificationDeps,
  principal: Principal,
  mailboxId: string,
): Promise<{ retryAfterSeconds: number } | null> {
  requireOrgAdmin(principal);
  return deps.db.transaction().execute(async (trx) => {
    const mailbox = await lockMailbox(trx, principal.organizationId, mailboxId);
    if (!mailbox) {
      throw AppError.notFound(NOT_FOUND);
    }
    if (mailbox.verified_at !== null) {
      throw AppError.conflict('This mailbox is verified already');
    }
    if (await isVerifiedElsewhere(trx, mailbox)) {
      throw AppError.conflict(VERIFIED_ELSEWHERE);
    }
    return issueLink(trx, deps, mailbox, principal.userId);
  });
}

/**
 * Looks up the TXT record of the mailbox's domain (no transaction is open meanwhile); when it
 * holds the organization's token, the domain is verified, and with it every unverified mailbox of
 * the organization on it whose address no other organization verified. Admins only.
 */
export async function checkDomainRecord(
  deps: VerificationDeps & { lookupTxt: TxtLookup },
  principal: Principal,
  mailboxId: string,
): Promise<void> {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const mailbox = await findMailboxById(deps.db, organizationId, mailboxId);
  if (!mailbox) {
    throw AppError.notFound(NOT_FOUND);
  }
  if (mailbox.verified_at !== null) {
    return;
  }
  const domain = domainOfAddress(mailbox.address);
  const at = deps.clock.now().toISOString();
  await ensureMailboxDomain(deps.db, { organizationId, domain, token: generateSecretToken(), at });
  const [claim] = await findMailboxDomains(deps.db, organizationId, [domain]);
  const record = domainVerificationRecord(domain, claim?.token ?? '');
  let found: string[];
  try {
    found = await deps.lookupTxt(record.name);
  } catch (error) {
    if (error instanceof DnsLookupError) {
      throw new AppError({ code: 'BAD_GATEWAY', message: `${error.message}: try again later`, cause: error });
    }
    throw error;
  }
  if (!found.some((value) => value.trim() === record.value)) {
    throw new AppError({
      code: 'UNPROCESSABLE',
      message:
        `No TXT record ${record.name} with the value ${record.value} was found. Publish it, then check again ` +
        '(a new record can take a while to reach every resolver).',
    });
  }
  const verifiedHere = await deps.db.transaction().execute(async (trx) => {
    await markMailboxDomainVerified(trx, organizationId, domain, at);
    let verified = false;
    for (const candidate of await findUnverifiedMailboxes(trx, organizationId)) {
      const claimed = { ...candidate, organization_id: organizationId };
      if (domainOfAddress(candidate.address) !== domain || (await isVerifiedElsewhere(trx, claimed))) {
        continue;
      }
      await markMailboxVerified(trx, candidate.id, { at, method: 'dns' });
      await expireOpenVerificationLinks(trx, candidate.id, at);
      verified ||= candidate.id === mailbox.id;
    }
    return verified;
  });
  if (!verifiedHere) {
    throw AppError.conflict(VERIFIED_ELSEWHERE);
  }
}

const page = (status: number, title: string, ...paragraphs: string[]): VerificationPage => ({ status, title, paragraphs });

const INVALID = page(404, 'This link is not valid', 'Check that the whole link was opened, or ask for a new one.');

/** Why a link cannot be used now, as a page; null when it can. */
function refusalOf(link: VerificationLinkRow | undefined, now: Date): VerificationPage | null {
  if (!link) {
    return INVALID;
  }
  if (link.mailbox_id === null || link.mailbox_address !== link.address) {
    return page(410, 'This link no longer applies', `The mailbox for ${link.address} was changed or deleted since it was sent.`);
  }
  if (link.mailbox_verified_at !== null) {
    return page(200, 'Address verified', `${link.address} is verified for ${link.organization_name}. Nothing more to do.`);
  }
  if (link.used_at !== null) {
    return page(410, 'This link was already used', 'Ask the admin who set up the mailbox for a new one.');
  }
  if (Date.parse(link.expires_at) <= now.getTime()) {
    return page(410, 'This link has expired', 'It was replaced by a newer one, or its time ran out. Ask for a new one.');
  }
  return null;
}

const takenPage = (address: string) =>
  page(409, 'Address taken', `${address} is verified by another organization on this Switchboard. Nothing changed.`);

/** The page a link opens: what confirming does and for whom, with the button; nothing changes until it is pressed. */
export async function describeVerificationLink(deps: VerificationDeps, token: string | undefined): Promise<VerificationPage> {
  if (!token || !looksLikeSecretToken(token)) {
    return INVALID;
  }
  const link = await findVerificationLink(deps.db, hashSecretToken(token));
  const refused = refusalOf(link, deps.clock.now());
  if (refused || !link?.mailbox_id) {
    return refused ?? INVALID;
  }
  if (await isVerifiedElsewhere(deps.db, { id: link.mailbox_id, address: link.address })) {
    return takenPage(link.address);
  }
  return {
    ...page(
      200,
      `Confirm ${link.address}`,
      `${link.organization_name} asks to use ${link.address} as a support address on Switchboard: mail sent to it ` +
        'will become their tickets, and their replies will be sent from it.',
      'Confirm only if you, or someone you work with, set this up. If not, close this page: nothing changes.',
    ),
    confirm: { token, action: VERIFICATION_PAGE_PATH },
  };
}

/**
 * Confirms a link: in one transaction holding the mailbox's row, the link is used up (once, by a
 * conditional update) and the mailbox verified, if its address is still the one the link went to
 * and no other organization verified it meanwhile.
 */
export async function confirmVerificationLink(deps: VerificationDeps, token: string): Promise<VerificationPage> {
  if (!looksLikeSecretToken(token)) {
    return INVALID;
  }
  const tokenHash = hashSecretToken(token);
  const now = deps.clock.now();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const found = await findVerificationLink(trx, tokenHash);
      const mailbox = found?.mailbox_id ? await lockMailbox(trx, found.organization_id, found.mailbox_id) : undefined;
      // The mailbox as its lock found it, not as the link's read did.
      const link = found && {
        ...found,
        mailbox_address: mailbox?.address ?? null,
        mailbox_verified_at: mailbox?.verified_at ?? null,
      };
      const refused = refusalOf(link, now);
      if (refused || !link || !mailbox) {
        return refused ?? INVALID;
      }
      if (await isVerifiedElsewhere(trx, mailbox)) {
        return takenPage(link.address);
      }
      if (!(await consumeVerificationLink(trx, link.id, now.toISOString()))) {
        // Used by a request that got there first.
        return refusalOf({ ...link, used_at: now.toISOString() }, now) ?? INVALID;
      }
      await markMailboxVerified(trx, mailbox.id, { at: now.toISOString(), method: 'link' });
      await expireOpenVerificationLinks(trx, mailbox.id, now.toISOString());
      return page(
        200,
        'Address verified',
        `${link.address} is now a support address of ${link.organization_name}: mail to it becomes their tickets, ` +
          'and their replies are sent from it.',
      );
    });
  } catch (error) {
    // Another organization verified the address between the check and the update.
    if (translateDbError(error)?.code === 'CONFLICT') {
      const link = await findVerificationLink(deps.db, tokenHash);
      return takenPage(link?.address ?? 'This address');
    }
    throw error;
  }
}
