import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { EmailMessageTable } from '../email-messages/email-message.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Received messages taken into the conversation (a new ticket, a reply); the others were set
 * aside (auto-replies, bounces, loops, floods, unreadable: `inbound.service.ts`), the customer may
 * never have seen them, so nothing cites them.
 */
const TAKEN_IN = ['ticket_created', 'reply'];

/**
 * The mailbox a ticket's email is sent from, in one statement: the mailbox its first received
 * message came to, else a mailbox of its team (the team's default one first, then the oldest),
 * else the organization's default mailbox; undefined when there is none. Verified mailboxes only:
 * an address not proved to be the organization's is never used as `From` (nor its reply address).
 */
export async function findTicketMailbox(db: Db, organizationId: string, ticket: { id: string; teamId: string }) {
  return db
    .selectFrom('mailboxes')
    .select(['id', 'address', 'display_name'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', (eb) =>
      eb.fn.coalesce(
        eb
          .selectFrom('email_messages as first_received')
          .innerJoin('mailboxes as received_mailbox', 'received_mailbox.id', 'first_received.mailbox_id')
          .select('first_received.mailbox_id')
          .where('first_received.organization_id', '=', organizationId)
          .where('first_received.ticket_id', '=', ticket.id)
          .where('first_received.direction', '=', 'inbound')
          .where('received_mailbox.verified_at', 'is not', null)
          .orderBy('first_received.created_at')
          .orderBy('first_received.id')
          .limit(1),
        eb
          .selectFrom('mailboxes as team_mailbox')
          .select('team_mailbox.id')
          .where('team_mailbox.organization_id', '=', organizationId)
          .where('team_mailbox.team_id', '=', ticket.teamId)
          .where('team_mailbox.verified_at', 'is not', null)
          .orderBy('team_mailbox.is_default', 'desc')
          .orderBy('team_mailbox.created_at')
          .orderBy('team_mailbox.id')
          .limit(1),
        eb
          .selectFrom('mailboxes as default_mailbox')
          .select('default_mailbox.id')
          .where('default_mailbox.organization_id', '=', organizationId)
          .where('default_mailbox.is_default', '=', true)
          .where('default_mailbox.verified_at', 'is not', null),
      ),
    )
    .executeTakeFirst();
}

export type TicketMailboxRow = NonNullable<Awaited<ReturnType<typeof findTicketMailbox>>>;

/**
 * The Message-IDs a new message of one of a ticket's threads cites, oldest first: the thread's
 * first and its latest `latest` (two reads on the thread's index, however long it is).
 */
export async function findThreadEnds(
  db: Db,
  organizationId: string,
  ticketId: string,
  thread: string,
  latest: number,
): Promise<string[]> {
  const messages = db
    .selectFrom('email_messages')
    .select('message_id')
    .where('ticket_id', '=', ticketId)
    .where('thread', '=', thread)
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('direction', '=', 'outbound'), eb('disposition', 'in', TAKEN_IN)]));
  const first = await messages.orderBy('created_at').orderBy('id').limit(1).execute();
  const last = await messages.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(latest).execute();
  return [...new Set([...first, ...last.reverse()].map((row) => row.message_id))];
}

export async function insertEmailMessage(db: Db, row: Insertable<EmailMessageTable>): Promise<void> {
  await db.insertInto('email_messages').values(row).execute();
}

/** A sent ticket email is `sent` and keeps the bytes it went out as, when the transport gave them; the outbox row says when. */
export async function recordSentMessage(db: Db, outboxId: string, raw: Buffer | null): Promise<void> {
  await db
    .updateTable('email_messages')
    .set(raw ? { raw, raw_size: raw.length, disposition: 'sent' } : { disposition: 'sent' })
    .where('outbox_id', '=', outboxId)
    .where('direction', '=', 'outbound')
    .execute();
}
