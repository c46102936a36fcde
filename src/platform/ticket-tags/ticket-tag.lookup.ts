import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import { AppError, type IssueLocation } from '../../lib/errors.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import {
  deleteTicketTags,
  findOrganizationTags,
  insertTicketTags,
  listTagsOfTickets,
  listTeamTicketTags,
  type OrganizationTagRow,
} from './ticket-tag.repository.js';

/**
 * What the ticket code needs of ticket tags, without the routes' service: reading the tags of a
 * page of tickets, checking the tags a request names, and setting them inside the caller's
 * transaction (the caller holds the ticket's row lock and writes the timeline).
 */

type Db = Kysely<DB> | Transaction<DB>;

/** A tag as a ticket shows it. */
export interface TicketTagView {
  id: string;
  name: string;
  color: string | null;
}

export type TicketTagRow = OrganizationTagRow;

const ULID = new RegExp(ULID_PATTERN);

/** Tags in the order a ticket shows them: by name ignoring case, then by id. */
export function byTagName(a: { id: string; name: string }, b: { id: string; name: string }): number {
  const [left, right] = [a.name.toLowerCase(), b.name.toLowerCase()];
  if (left !== right) {
    return left < right ? -1 : 1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The tags of each ticket, by name; one statement for all of them (a page of a list). */
export async function tagsOfTickets(db: Db, ticketIds: readonly string[]): Promise<Map<string, TicketTagView[]>> {
  const byTicket = new Map<string, TicketTagView[]>(ticketIds.map((id) => [id, []]));
  for (const row of await listTagsOfTickets(db, ticketIds)) {
    byTicket.get(row.ticket_id)?.push({ id: row.id, name: row.name, color: row.color });
  }
  for (const tags of byTicket.values()) {
    tags.sort(byTagName);
  }
  return byTicket;
}

/** The tags a ticket read brought along as JSON (`tagsOfEnclosingTicket`), by name. */
export function tagsFromJson(json: string): TicketTagView[] {
  return (readJson<TicketTagView[]>(json) ?? []).sort(byTagName);
}

export async function tagsOfTicket(db: Db, ticketId: string): Promise<TicketTagView[]> {
  return (await tagsOfTickets(db, [ticketId])).get(ticketId) ?? [];
}

/**
 * The tags a request names for a ticket of `teamId`: each entry a tag id, or the name of one of the
 * team's ticket tags (ignoring case; names never create tags, the team's admins keep the
 * vocabulary). A tag of another team or of type `skills` is a 400 naming the entry, and so is an
 * id that is no tag of the organization (another organization's tag reads as unknown). Duplicates
 * count once.
 */
export async function resolveTicketTags(
  db: Db,
  organizationId: string,
  teamId: string,
  refs: readonly string[],
  at: { location: IssueLocation; field: string },
): Promise<TicketTagRow[]> {
  if (refs.length === 0) {
    return [];
  }
  const ids = refs.filter((ref) => ULID.test(ref));
  const known = new Map((await findOrganizationTags(db, organizationId, ids)).map((tag) => [tag.id, tag]));
  const names = refs.some((ref) => !known.has(ref)) ? await listTeamTicketTags(db, organizationId, teamId) : [];
  const chosen = new Map<string, TicketTagRow>();
  refs.forEach((ref, index) => {
    const path = [at.field, index];
    const tag = known.get(ref) ?? names.find((candidate) => candidate.name.toLowerCase() === ref.trim().toLowerCase());
    if (!tag) {
      throw AppError.invalid(`${at.field}[${index}] is neither a tag id of the organization nor a ticket tag name of the team`, {
        location: at.location,
        path,
        rule: 'reference',
      });
    }
    if (tag.team_id !== teamId) {
      throw AppError.invalid(`${at.field}[${index}] is a tag of another team; a ticket takes the tags of its own team`, {
        location: at.location,
        path,
        rule: 'reference',
      });
    }
    if (tag.tag_type !== 'ticket') {
      throw AppError.invalid(`${at.field}[${index}] is a ${tag.tag_type} tag, not a ticket tag`, {
        location: at.location,
        path,
        rule: 'reference',
      });
    }
    chosen.set(tag.id, tag);
  });
  return [...chosen.values()];
}

/** Makes `tags` the ticket's whole set. */
export async function replaceTicketTags(
  trx: Transaction<DB>,
  ticket: { id: string; organizationId: string },
  tags: readonly TicketTagRow[],
  at: string,
): Promise<void> {
  const ids = tags.map((tag) => tag.id);
  await deleteTicketTags(trx, ticket.id, { except: ids });
  await insertTicketTags(trx, ticket, ids, at);
}

export async function addTicketTags(
  trx: Transaction<DB>,
  ticket: { id: string; organizationId: string },
  tags: readonly TicketTagRow[],
  at: string,
): Promise<void> {
  await insertTicketTags(
    trx,
    ticket,
    tags.map((tag) => tag.id),
    at,
  );
}

export async function removeTicketTags(trx: Transaction<DB>, ticketId: string, tags: readonly TicketTagRow[]): Promise<void> {
  await deleteTicketTags(trx, ticketId, { only: tags.map((tag) => tag.id) });
}

/**
 * The tags of a ticket moving to `teamId` (by routing): each becomes the new team's ticket tag of
 * the same name, ignoring case, like statuses and priorities; one without a counterpart is
 * dropped. The timeline of the move records the change.
 */
export async function moveTicketTags(
  trx: Transaction<DB>,
  ticket: { id: string; organizationId: string },
  teamId: string,
  at: string,
): Promise<void> {
  const current = await tagsOfTicket(trx, ticket.id);
  if (current.length === 0) {
    return;
  }
  await replaceTicketTags(trx, ticket, await counterpartTags(trx, ticket.organizationId, teamId, current), at);
}

/** The ticket tags of `teamId` named like `tags` (ignoring case). */
export async function counterpartTags(
  db: Db,
  organizationId: string,
  teamId: string,
  tags: readonly { name: string }[],
): Promise<TicketTagRow[]> {
  if (tags.length === 0) {
    return [];
  }
  const wanted = new Set(tags.map((tag) => tag.name.toLowerCase()));
  return (await listTeamTicketTags(db, organizationId, teamId)).filter((tag) => wanted.has(tag.name.toLowerCase()));
}
