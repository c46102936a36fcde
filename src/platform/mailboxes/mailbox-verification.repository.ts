import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { MailboxVerificationMethod } from './mailbox.table.js';
import type { MailboxVerificationLinkTable } from './mailbox-verification.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function insertVerificationLink(db: Db, row: Insertable<MailboxVerificationLinkTable>): Promise<void> {
  await db.insertInto('mailbox_verification_links').values(row).execute();
}

/** Links sent to an address by the organization since `since`: what the sending limit counts. */
export async function countVerificationLinksSince(db: Db, organizationId: string, address: string, since: string) {
  const rows = await db
    .selectFrom('mailbox_verification_links')
    .select('created_at')
    .where('organization_id', '=', organizationId)
    .where('address', '=', address)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return { count: rows.length, oldest: rows[0]?.created_at ?? null };
}

/** Ends the mailbox's links still open: a newer link, a new address or a verification replaces them. */
export async function expireOpenVerificationLinks(db: Db, mailboxId: string, now: string): Promise<void> {
  await db
    .updateTable('mailbox_verification_links')
    .set({ expires_at: now })
    .where('mailbox_id', '=', mailboxId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/** The latest link of each of these mailboxes: when it was sent and until when it works. */
export async function findLatestVerificationLinks(db: Db, mailboxIds: readonly string[]) {
  if (mailboxIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('mailbox_verification_links')
    .select(['mailbox_id', 'created_at', 'expires_at', 'used_at'])
    .where('mailbox_id', 'in', [...mailboxIds])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A link by the hash of its token, with what its page shows: the organization, and the mailbox as it is now. */
export async function findVerificationLink(db: Db, tokenHash: string) {
  return db
    .selectFrom('mailbox_verification_links as link')
    .innerJoin('organizations', 'organizations.id', 'link.organization_id')
    .leftJoin('mailboxes', 'mailboxes.id', 'link.mailbox_id')
    .select([
      'link.id',
      'link.organization_id',
      'link.mailbox_id',
      'link.address',
      'link.expires_at',
      'link.used_at',
      'organizations.name as organization_name',
      'mailboxes.address as mailbox_address',
      'mailboxes.verified_at as mailbox_verified_at',
    ])
    .where('link.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export type VerificationLinkRow = NonNullable<Awaited<ReturnType<typeof findVerificationLink>>>;

/**
 * Uses the link: one conditional UPDATE, so that of two requests (or processes) presenting the same
 * token only one goes on. The caller holds the mailbox's row.
 */
export async function consumeVerificationLink(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('mailbox_verification_links')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Marks an unverified mailbox verified. The partial unique index on verified addresses makes a
 * second organization's verification of the same address fail, however the two race.
 */
export async function markMailboxVerified(
  db: Db,
  mailboxId: string,
  verification: { at: string; method: MailboxVerificationMethod },
): Promise<boolean> {
  const result = await db
    .updateTable('mailboxes')
    .set({ verified_at: verification.at, verification_method: verification.method, updated_at: verification.at })
    .where('id', '=', mailboxId)
    .where('verified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The organization's unverified mailboxes (few: each waits for its link or its domain). */
export async function findUnverifiedMailboxes(db: Db, organizationId: string) {
  return db
    .selectFrom('mailboxes')
    .select(['id', 'address'])
    .where('organization_id', '=', organizationId)
    .where('verified_at', 'is', null)
    .execute();
}

/** The organization's token for a domain, made on first need; concurrent first needs keep the first token. */
export async function ensureMailboxDomain(
  db: Db,
  row: { organizationId: string; domain: string; token: string; at: string },
): Promise<void> {
  await db
    .insertInto('mailbox_domains')
    .values({ organization_id: row.organizationId, domain: row.domain, token: row.token, created_at: row.at })
    .onConflict((oc) => oc.columns(['organization_id', 'domain']).doNothing())
    .execute();
}

export async function findMailboxDomains(db: Db, organizationId: string, domains: readonly string[]) {
  if (domains.length === 0) {
    return [];
  }
  return db
    .selectFrom('mailbox_domains')
    .select(['domain', 'token', 'verified_at'])
    .where('organization_id', '=', organizationId)
    .where('domain', 'in', [...domains])
    .execute();
}

export async function markMailboxDomainVerified(db: Db, organizationId: string, domain: string, at: string): Promise<void> {
  await db
    .updateTable('mailbox_domains')
    .set({ verified_at: at })
    .where('organization_id', '=', organizationId)
    .where('domain', '=', domain)
    .where('verified_at', 'is', null)
    .execute();
}
