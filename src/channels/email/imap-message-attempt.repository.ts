import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';

/** One message of an IMAP mailbox's folder. */
export interface ImapMessageKey {
  mailboxId: string;
  uidValidity: number;
  uid: number;
}

/** Counts an attempt at filing the message, before it is made; answers the attempts so far, this one included. */
export async function countImapMessageAttempt(db: Kysely<DB>, key: ImapMessageKey, now: string): Promise<number> {
  const row = await db
    .insertInto('imap_message_attempts')
    .values({ mailbox_id: key.mailboxId, uid_validity: key.uidValidity, uid: key.uid, attempts: 1, updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(['mailbox_id', 'uid_validity', 'uid'])
        .doUpdateSet((eb) => ({ attempts: eb('imap_message_attempts.attempts', '+', 1), updated_at: now })),
    )
    .returning('attempts')
    .executeTakeFirstOrThrow();
  return Number(row.attempts);
}

/** Forgets the attempts at a message that was filed or set aside. */
export async function forgetImapMessageAttempts(db: Kysely<DB>, key: ImapMessageKey): Promise<void> {
  await db
    .deleteFrom('imap_message_attempts')
    .where('mailbox_id', '=', key.mailboxId)
    .where('uid_validity', '=', key.uidValidity)
    .where('uid', '=', key.uid)
    .execute();
}
