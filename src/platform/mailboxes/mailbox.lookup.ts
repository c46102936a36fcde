import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import {
  findAnyAdminId,
  findRoutingMailboxById,
  findSupportAddressOf,
  findVerifiedMailboxByAddress,
  isMailboxAddress,
  type RoutingMailbox,
} from './mailbox.repository.js';

// What the mail receivers (channels/email: SMTP, IMAP, the inbound filing) route by. Verified
// mailboxes only, in any organization: an address is a mailbox of at most one.

type Db = Kysely<DB> | Transaction<DB>;

export type { RoutingMailbox };

/** The verified mailbox with this address (lower case), in whatever organization, or undefined. */
export async function findVerifiedMailbox(db: Db, address: string): Promise<RoutingMailbox | undefined> {
  return findVerifiedMailboxByAddress(db, address);
}

/** The mailbox `id` as the receivers route by it, or undefined once it is deleted or no longer verified. */
export async function findRoutingMailbox(db: Db, id: string): Promise<RoutingMailbox | undefined> {
  return findRoutingMailboxById(db, id);
}

/** Whether a verified mailbox has this address: mail from one is Switchboard's own. */
export async function isOwnMailboxAddress(db: Db, address: string): Promise<boolean> {
  return isMailboxAddress(db, address);
}

/**
 * Who the mailbox's tickets and uploads are created as: its creator, or for a mailbox made before
 * that was recorded, the organization's first admin.
 */
export async function mailboxActingUserId(
  db: Db,
  organizationId: string,
  mailbox: Pick<RoutingMailbox, 'created_by_id'>,
): Promise<string | undefined> {
  return mailbox.created_by_id ?? (await findAnyAdminId(db, organizationId));
}

/** Where customers write to the organization (its default verified mailbox, else its oldest), for pages that offer it. */
export async function findSupportAddress(db: Db, organizationId: string): Promise<string | undefined> {
  return findSupportAddressOf(db, organizationId);
}
