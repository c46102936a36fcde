import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { EmailMessageTable } from '../../delivery/email-messages/email-message.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Stores a received message unless the organization already has one with its Message-ID: true
 * when this call stored it. On PostgreSQL a concurrent insert of the same id waits for the first
 * transaction and then finds the row, so of two deliveries of one message exactly one goes on.
 */
export async function insertInboundMessage(db: Db, row: Insertable<EmailMessageTable>): Promise<boolean> {
  const result = await db
    .insertInto('email_messages')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'direction', 'message_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateEmailMessage(db: Db, id: string, changes: Updateable<EmailMessageTable>): Promise<void> {
  await db.updateTable('email_messages').set(changes).where('id', '=', id).execute();
}

/** Messages the organization received from `fromAddress` since `since` (on `email_messages_sender`). */
export async function countMessagesFromSender(
  db: Db,
  organizationId: string,
  fromAddress: string,
  since: string,
): Promise<number> {
  const row = await db
    .selectFrom('email_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('from_address', '=', fromAddress)
    .where('created_at', '>=', since)
    .where('direction', '=', 'inbound')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The ticket of the latest message, sent or received, of the organization whose Message-ID is
 * among `messageIds`: what a reply cites. Only this organization's messages are looked at, so a
 * forged `In-Reply-To` naming another organization's message finds nothing.
 */
export async function findTicketOfMessages(
  db: Db,
  organizationId: string,
  messageIds: readonly string[],
): Promise<string | null> {
  if (messageIds.length === 0) {
    return null;
  }
  const row = await db
    .selectFrom('email_messages')
    .select('ticket_id')
    .where('organization_id', '=', organizationId)
    .where('direction', 'in', ['inbound', 'outbound'])
    .where('message_id', 'in', [...messageIds])
    .where('ticket_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.ticket_id ?? null;
}

/** Whether the organization stored a received message with this id: a second delivery of it is a duplicate. */
export async function isStoredInboundMessage(db: Db, organizationId: string, messageId: string): Promise<boolean> {
  const row = await db
    .selectFrom('email_messages')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('direction', '=', 'inbound')
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the organization sent a message with this id: a copy of it coming back is a loop. */
export async function isOwnSentMessage(db: Db, organizationId: string, messageId: string): Promise<boolean> {
  const row = await db
    .selectFrom('email_messages')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('direction', '=', 'outbound')
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The organization's live tickets with this identifier (lower case; more than one only after moves between teams). */
export async function findLiveTicketsByIdentifier(db: Db, organizationId: string, identifier: string) {
  return db
    .selectFrom('tickets')
    .select(['id', 'team_id', 'is_private'])
    .where('organization_id', '=', organizationId)
    .where(sql<string>`lower(ticket_identifier)`, '=', identifier)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function findLiveTicket(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('tickets')
    .select(['id', 'team_id', 'is_private'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', ticketId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export type ThreadTicket = NonNullable<Awaited<ReturnType<typeof findLiveTicket>>>;
