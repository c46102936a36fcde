import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { ListPage } from '../../lib/cursors.js';
import type { MailboxTable } from './mailbox.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Everything the API shows of a mailbox; the sealed password is read only by the poller. */
const MAILBOX_COLUMNS = [
  'id',
  'organization_id',
  'team_id',
  'address',
  'display_name',
  'delivery',
  'is_default',
  'imap_host',
  'imap_port',
  'imap_tls',
  'imap_user',
  'imap_folder',
  'imap_processed_folder',
  'imap_last_polled_at',
  'imap_next_poll_at',
  'imap_last_error',
  'verified_at',
  'verification_method',
  'created_at',
  'updated_at',
] as const;

export async function insertMailbox(db: Db, row: Insertable<MailboxTable>): Promise<void> {
  await db.insertInto('mailboxes').values(row).execute();
}

export async function findMailboxById(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('mailboxes')
    .select(MAILBOX_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type MailboxRow = NonNullable<Awaited<ReturnType<typeof findMailboxById>>>;

/** The mailbox for a change: its row, locked until the transaction ends. */
export async function lockMailbox(trx: Transaction<DB>, organizationId: string, id: string) {
  return forUpdate(
    trx,
    trx
      .selectFrom('mailboxes')
      .select([...MAILBOX_COLUMNS, 'imap_password_encrypted'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', id),
  ).executeTakeFirst();
}

/** One page of the organization's mailboxes by address (then id), `limit + 1` rows, from `mailboxes_organization_address`. */
export async function listMailboxes(db: Db, organizationId: string, page: ListPage): Promise<MailboxRow[]> {
  const query = db.selectFrom('mailboxes').select(MAILBOX_COLUMNS).where('organization_id', '=', organizationId);
  return inKeysetOrder(query, ['address', 'id'], page.after)
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
}

export async function updateMailbox(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<MailboxTable>,
): Promise<void> {
  await db.updateTable('mailboxes').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Unsets the organization's default mailbox, if another than `exceptId` is. */
export async function clearDefaultMailbox(db: Db, organizationId: string, exceptId: string, at: string): Promise<void> {
  await db
    .updateTable('mailboxes')
    .set({ is_default: false, updated_at: at })
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', true)
    .where('id', '<>', exceptId)
    .execute();
}

export async function deleteMailbox(db: Db, organizationId: string, id: string): Promise<number> {
  const result = await db
    .deleteFrom('mailboxes')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * What the mail receivers route by: the verified mailbox of an address (lower case), in any
 * organization (at most one: `mailboxes_verified_address`). An unverified one takes no mail.
 */
export async function findVerifiedMailboxByAddress(db: Db, address: string) {
  return db
    .selectFrom('mailboxes')
    .select(['id', 'organization_id', 'team_id', 'address', 'display_name', 'created_by_id'])
    .where('address', '=', address)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
}

export type RoutingMailbox = NonNullable<Awaited<ReturnType<typeof findVerifiedMailboxByAddress>>>;

export async function findRoutingMailboxById(db: Db, id: string): Promise<RoutingMailbox | undefined> {
  return db
    .selectFrom('mailboxes')
    .select(['id', 'organization_id', 'team_id', 'address', 'display_name', 'created_by_id'])
    .where('id', '=', id)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
}

/**
 * Whether a verified mailbox of the installation has this address: mail from one is Switchboard's
 * own. An unverified claim counts for nothing, or claiming a customer's address would silence them.
 */
export async function isMailboxAddress(db: Db, address: string): Promise<boolean> {
  const row = await db
    .selectFrom('mailboxes')
    .select('id')
    .where('address', '=', address)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The mailboxes of every organization with this address, verified or not: who claims it. */
export async function findAddressClaims(db: Db, address: string) {
  return db.selectFrom('mailboxes').select(['id', 'organization_id', 'verified_at']).where('address', '=', address).execute();
}

/** An admin of the organization: who a mailbox made before `created_by_id` existed creates tickets as. */
export async function findAnyAdminId(db: Db, organizationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('user_type', '=', 'ORG_ADMIN')
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

/** The organization's default verified mailbox's address, else its oldest verified one. */
export async function findSupportAddressOf(db: Db, organizationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('mailboxes')
    .select('address')
    .where('organization_id', '=', organizationId)
    .where('verified_at', 'is not', null)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.address;
}
