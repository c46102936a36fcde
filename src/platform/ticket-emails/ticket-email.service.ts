import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { requireTicketAccess } from '../tickets/ticket.service.js';
import { toTicketEmail } from './ticket-email.presenter.js';
import { findTicketEmailRaw, listTicketEmails } from './ticket-email.repository.js';
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
