import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import { deliveryOfJoinedOutbox } from '../../delivery/outbox/outbox.service.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { requireTicketAccess } from '../tickets/ticket.service.js';
import { findTicketEmailRaw, listTicketEmails, type TicketEmailRow } from './ticket-email.repository.js';

function toTicketEmail(row: TicketEmailRow) {
  return {
    id: row.id,
    direction: row.direction,
    mailboxId: row.mailbox_id,
    messageId: row.message_id,
    inReplyTo: row.in_reply_to,
    references: readJson<string[]>(row.references_ids) ?? [],
    from: { address: row.from_address, name: row.from_name },
    to: readJson<string[]>(row.to_addresses) ?? [],
    cc: readJson<string[]>(row.cc_addresses) ?? [],
    subject: row.subject,
    headers: (readJson<[string, string][]>(row.headers) ?? []).map(([name, value]) => ({ name, value })),
    size: Number(row.raw_size),
    hasRaw: readBoolean(row.has_raw),
    disposition: row.disposition,
    commentId: row.comment_id,
    delivery: deliveryOfJoinedOutbox(row),
    createdAt: row.created_at,
  };
}

export type TicketEmail = ReturnType<typeof toTicketEmail>;

/** A ticket's messages, received and sent, oldest first, for whoever may see the ticket; by `page` or `cursor`. */
export async function listEmailsOfTicket(
  db: Kysely<DB>,
  principal: Principal,
  ticketIdParam: string,
  query: { page?: number; limit?: number; cursor?: string },
): Promise<{ items: TicketEmail[]; nextCursor: string | null }> {
  const ticket = await requireTicketAccess(db, principal, ticketIdParam);
  const page = readListPage(query, query.limit ?? 20, 2);
  const rows = await listTicketEmails(db, principal.organizationId, ticket.id, page);
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return { items: items.map(toTicketEmail), nextCursor };
}

/** The original of a message of the ticket, as it was received; 404 when it is not one, or none is kept. */
export async function readRawEmail(
  db: Kysely<DB>,
  principal: Principal,
  ticketIdParam: string,
  emailId: string,
): Promise<Buffer> {
  const ticket = await requireTicketAccess(db, principal, ticketIdParam);
  const row = await findTicketEmailRaw(db, principal.organizationId, ticket.id, emailId);
  if (!row) {
    throw AppError.notFound('Email not found!');
  }
  if (!row.raw) {
    throw AppError.notFound('The original of this email is not kept');
  }
  return row.raw;
}
