import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import { JOINED_OUTBOX_COLUMNS } from '../../delivery/outbox/outbox.repository.js';
import type { ListPage } from '../../lib/cursors.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * One page of a ticket's messages, oldest first (then by id), `limit + 1` rows, walked on
 * `email_messages_ticket`; a sent one with the state of the outbox row delivering it.
 */
export async function listTicketEmails(db: Db, organizationId: string, ticketId: string, page: ListPage) {
  const ids = db
    .selectFrom('email_messages')
    .select(['id', 'created_at'])
    .where('ticket_id', '=', ticketId)
    .where('organization_id', '=', organizationId);
  return db
    .selectFrom(
      inKeysetOrder(ids, ['created_at', 'id'], page.after)
        .limit(page.limit + 1)
        .offset(page.offset)
        .as('page'),
    )
    .innerJoin('email_messages as message', 'message.id', 'page.id')
    .leftJoin('email_outbox as outbox', 'outbox.id', 'message.outbox_id')
    .select([
      'message.id',
      'message.direction',
      'message.mailbox_id',
      'message.message_id',
      'message.in_reply_to',
      'message.references_ids',
      'message.from_address',
      'message.from_name',
      'message.to_addresses',
      'message.cc_addresses',
      'message.subject',
      'message.headers',
      'message.raw_size',
      'message.disposition',
      'message.comment_id',
      'message.created_at',
    ])
    .select(JOINED_OUTBOX_COLUMNS)
    .select((eb) => eb('message.raw', 'is not', null).as('has_raw'))
    .orderBy('page.created_at')
    .orderBy('page.id')
    .execute();
}

export type TicketEmailRow = Awaited<ReturnType<typeof listTicketEmails>>[number];

/** The original bytes of a message of the ticket; undefined for another ticket's or organization's id. */
export async function findTicketEmailRaw(db: Db, organizationId: string, ticketId: string, emailId: string) {
  return db
    .selectFrom('email_messages')
    .select(['id', 'raw'])
    .where('id', '=', emailId)
    .where('ticket_id', '=', ticketId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}
