import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import { slaOfJson, slaOfTickets, type TicketSla } from '../ticket-sla/ticket-sla.lookup.js';
import { type TicketTagView, tagsFromJson, tagsOfTickets } from '../ticket-tags/ticket-tag.lookup.js';
import type { TicketRow } from './ticket.repository.js';

/** A ticket as the API answers it; `tags` from `tagsOfTickets` (one statement for a page). */
export function toTicket(row: TicketRow, tags: readonly TicketTagView[], sla: TicketSla | null = null) {
  return {
    id: row.id,
    ticketId: row.ticket_number,
    ticketIdentifier: row.ticket_identifier,
    title: row.title,
    description: row.description,
    source: row.source,
    accountId: row.account_id,
    account: row.account_name,
    statusId: row.status_id,
    status: row.status_name,
    isClosed: readBoolean(row.status_is_closed),
    priorityId: row.priority_id,
    priority: row.priority_name,
    typeId: row.type_id,
    type: row.type_name,
    teamId: row.team_id,
    teamName: row.team_name,
    teamIdentifier: row.team_identifier,
    isPrivate: readBoolean(row.is_private),
    assignedAgent: row.agent_name,
    assignedAgentId: row.assigned_agent_id,
    assignedAgentEmail: row.agent_email,
    assignedAgentAvatar: row.agent_avatar,
    requestorEmail: row.requestor_email,
    customerContactId: row.customer_contact_id,
    customerContactFirstName: row.contact_first_name,
    customerContactLastName: row.contact_last_name,
    customerContactEmail: row.contact_email,
    submitterEmail: row.submitter_email,
    metadata: readJson<Record<string, unknown>>(row.metadata),
    customFieldValues: readJson<{ fieldId: string; value: unknown }[]>(row.custom_field_values) ?? [],
    tags: [...tags],
    dueDate: row.due_date,
    closedAt: row.closed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    sla,
  };
}

export type Ticket = ReturnType<typeof toTicket>;

/**
 * Tickets as the API answers them, with their tags and SLA targets read in one statement each.
 * With `now`, SLA targets past due read `breached` at once.
 */
const NOTHING_LOOKED_UP = new Map<string, never>();

export async function presentTickets(
  db: Kysely<DB> | Transaction<DB>,
  rows: readonly TicketRow[],
  now?: Date,
): Promise<Ticket[]> {
  // A read by key or a page brings its tags and SLA targets along: then nothing is looked up.
  const withoutTags = rows.filter((row) => row.tags_json === undefined).map((row) => row.id);
  const withoutSla = rows.filter((row) => row.sla_json === undefined).map((row) => row.id);
  const tags = withoutTags.length > 0 ? await tagsOfTickets(db, withoutTags) : NOTHING_LOOKED_UP;
  const sla = withoutSla.length > 0 ? await slaOfTickets(db, withoutSla, now) : NOTHING_LOOKED_UP;
  return rows.map((row) =>
    toTicket(
      row,
      row.tags_json === undefined ? (tags.get(row.id) ?? []) : tagsFromJson(row.tags_json),
      row.sla_json === undefined ? (sla.get(row.id) ?? null) : slaOfJson(row.sla_json, now),
    ),
  );
}

/**
 * A ticket read by key with its tags and SLA targets along (`findTicketById`) as the API answers it,
 * without a lookup and without a promise (a read of one ticket is a hot path); undefined for a row
 * that came without them.
 */
function presentReadTicket(row: TicketRow, now?: Date): Ticket | undefined {
  if (row.tags_json === undefined || row.sla_json === undefined) {
    return undefined;
  }
  return toTicket(row, tagsFromJson(row.tags_json), slaOfJson(row.sla_json, now));
}

export async function presentTicket(db: Kysely<DB> | Transaction<DB>, row: TicketRow, now?: Date): Promise<Ticket> {
  const read = presentReadTicket(row, now);
  if (read) {
    return read;
  }
  const [ticket] = await presentTickets(db, [row], now);
  if (!ticket) {
    throw new Error('presentTickets answered nothing for one row');
  }
  return ticket;
}
