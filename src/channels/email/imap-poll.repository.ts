import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import {
  claimLeased,
  finishUnderLease,
  type LeaseColumns,
  type LeasedQueue,
  notLeased,
  renewLease,
  updateUnderLease,
} from '../../db/job-queue.js';

// The poll state of an IMAP mailbox (its lease, its cursor into the folder, how the last poll
// went) lives in the `imap_*` columns of the mailbox's row, but it is the email channel's: only the
// poller reads and writes it. The mailbox feature owns the rest of the row.

type Db = Kysely<DB> | Transaction<DB>;

const IMAP_CLAIM_COLUMNS = [
  'id',
  'organization_id',
  'address',
  'imap_host',
  'imap_port',
  'imap_tls',
  'imap_user',
  'imap_password_encrypted',
  'imap_folder',
  'imap_processed_folder',
  'imap_uid_validity',
  'imap_last_uid',
  'imap_failures',
] as const;

/** IMAP mailboxes as a leased queue: a poller holds one while `imap_locked_until` is ahead; no status column. */
const IMAP_POLL_LEASE: LeaseColumns<DB, 'mailboxes'> = { table: 'mailboxes', lease: 'imap_locked_until' };

/**
 * Due for a poll and not leased. An unverified mailbox is not polled: its address is not proved to
 * be the organization's. The least recently due first.
 */
const IMAP_POLL_QUEUE: LeasedQueue<DB, 'mailboxes', (typeof IMAP_CLAIM_COLUMNS)[number]> = {
  ...IMAP_POLL_LEASE,
  claimable: (eb, now) =>
    eb.and([
      eb('mailboxes.delivery', '=', 'imap'),
      eb('mailboxes.verified_at', 'is not', null),
      eb.or([eb('mailboxes.imap_next_poll_at', 'is', null), eb('mailboxes.imap_next_poll_at', '<=', now)]),
      notLeased(eb, IMAP_POLL_LEASE, now),
    ]),
  order: ['imap_next_poll_at', 'id'],
  returning: IMAP_CLAIM_COLUMNS,
};

/**
 * Claims one IMAP mailbox that is due and not leased (`claimLeased`), so two pollers never hold
 * the same lease.
 */
export async function claimDueImapMailbox(db: Kysely<DB>, claim: { now: string; lockedUntil: string }) {
  const [claimed] = await claimLeased(db, IMAP_POLL_QUEUE, { now: claim.now, leaseUntil: claim.lockedUntil, limit: 1 });
  return claimed;
}

export type ClaimedImapMailbox = NonNullable<Awaited<ReturnType<typeof claimDueImapMailbox>>>;

/**
 * Moves the poller's cursor past `uid` and renews its lease, while the lease is still `lockedUntil`
 * (false: another poller took the mailbox over). The cursor never goes back.
 */
export async function advanceImapCursor(
  db: Db,
  id: string,
  lease: { lockedUntil: string; renewedUntil: string },
  cursor: { uidValidity: number; lastUid: number },
): Promise<boolean> {
  return renewLease(db, IMAP_POLL_LEASE, { id, until: lease.lockedUntil }, lease.renewedUntil, (eb) => ({
    imap_uid_validity: cursor.uidValidity,
    imap_last_uid: eb
      .case()
      .when(eb.or([eb('imap_last_uid', 'is', null), eb('imap_last_uid', '<', cursor.lastUid)]))
      .then(cursor.lastUid)
      .else(eb.ref('imap_last_uid'))
      .end(),
  }));
}

/** A new UIDVALIDITY: the folder's UIDs start over, and so does the cursor. */
export async function resetImapCursor(db: Db, id: string, lockedUntil: string, uidValidity: number): Promise<boolean> {
  return updateUnderLease(db, IMAP_POLL_LEASE, { id, until: lockedUntil }, { imap_uid_validity: uidValidity, imap_last_uid: 0 });
}

/** Ends a poll: releases the lease (if still ours) and records when the mailbox is due again and how it went. */
export async function finishImapPoll(
  db: Db,
  id: string,
  lockedUntil: string,
  outcome: { at: string; nextPollAt: string; error: string | null; failures: number },
): Promise<void> {
  await finishUnderLease(
    db,
    IMAP_POLL_LEASE,
    { id, until: lockedUntil },
    {
      imap_last_polled_at: outcome.at,
      imap_next_poll_at: outcome.nextPollAt,
      imap_last_error: outcome.error,
      imap_failures: outcome.failures,
    },
  );
}
