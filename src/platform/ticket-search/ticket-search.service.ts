import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { highlightTicketDocuments, searchTicketDocuments, type TicketHighlight } from '../../db/full-text.js';
import { encodeCursor, readPageCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { parseSearchQuery, type SearchQuery, SearchQueryError } from '../../lib/search-query.js';
import { isOrgAdmin } from '../authorization.js';
import { presentTickets, type Ticket } from '../tickets/ticket.presenter.js';
import { findTicketsByIds, visibleTickets } from '../tickets/ticket.repository.js';
import { resolveTicketQuery, type TicketFilterQuery } from '../tickets/ticket-filters.js';
import { applyTicketFilters } from '../tickets/ticket-list-queries.js';
import { MAX_SEARCH_DEPTH, type SearchTicketsQuerySchema } from './ticket-search.schemas.js';

type SearchTicketsQuery = Static<typeof SearchTicketsQuerySchema> & TicketFilterQuery;

/** Parts of a ticket shown as highlights: enough to say where it matched without sending its thread. */
const HIGHLIGHTED_PARTS = 3;

export interface TicketSearchHit extends Ticket {
  highlights: {
    field: TicketHighlight['field'];
    commentId: string | null;
    commentVisibility: 'public' | 'private' | null;
    text: string;
  }[];
}

/**
 * Whether the caller reads private comments (internal notes), and so finds tickets by them and
 * sees them in highlights. The comment list answers every comment of a ticket to whoever may see
 * the ticket: every user of an organization is an agent. A caller acting for a customer (an AI
 * agent's run answering an email) says so with `withoutInternalNotes`, and then neither finds
 * tickets by their notes nor sees a word of them.
 */
function seesPrivateComments(_principal: Principal, options: SearchOptions): boolean {
  return !options.withoutInternalNotes;
}

export interface SearchOptions {
  /** The search is for someone who may not read internal notes (a customer). */
  withoutInternalNotes?: boolean;
}

function readQuery(q: string): SearchQuery {
  try {
    return parseSearchQuery(q);
  } catch (error) {
    if (error instanceof SearchQueryError) {
      throw AppError.invalid(`q ${error.message}`, { location: 'query', path: ['q'], rule: 'search' });
    }
    throw error;
  }
}

/** What a cursor is bound to: the same words and filters, so another search's cursor is refused. */
function searchKey(q: string, filterFingerprint: string): string {
  return createHash('sha256')
    .update(JSON.stringify([q, filterFingerprint]))
    .digest('base64url')
    .slice(0, 22);
}

/** Where a page starts: `page * limit`, or the position a `nextCursor` of this same search holds. */
function startOf(query: SearchTicketsQuery, limit: number, key: string): number {
  const cursor = readPageCursor(query, 2);
  const [position, cursorKey] = cursor ?? [(query.page ?? 0) * limit, key];
  if (typeof position !== 'number' || !Number.isInteger(position) || position < 0 || cursorKey !== key) {
    throw AppError.invalid('cursor is not a nextCursor of this search (same q and filters)', {
      location: 'query',
      path: ['cursor'],
      rule: 'cursor',
    });
  }
  if (position + limit > MAX_SEARCH_DEPTH) {
    throw AppError.invalid(`page goes past the first ${MAX_SEARCH_DEPTH} results: narrow the search instead`, {
      location: 'query',
      path: [query.cursor === undefined ? 'page' : 'cursor'],
      rule: 'maximum',
    });
  }
  return position;
}

/**
 * The tickets the caller may see that match `q`, best first, each with where it matched. The
 * ranking is computed afresh for each page, so `nextCursor` holds a position in it (not keys of a
 * row): a ticket written between two pages can shift the ranking, as on any search engine.
 */
export async function searchTickets(
  db: Kysely<DB>,
  principal: Principal,
  query: SearchTicketsQuery,
  options: SearchOptions = {},
): Promise<{ items: TicketSearchHit[]; nextCursor: string | null }> {
  const search = readQuery(query.q);
  // The list's filters, checked as the list checks them (another organization's ids are 404s).
  const { filters, fingerprint } = await resolveTicketQuery(db, principal, query);
  const key = searchKey(query.q, fingerprint);
  const limit = query.limit ?? 10;
  const start = startOf(query, limit, key);
  const includePrivate = seesPrivateComments(principal, options);
  const ranked = await searchTicketDocuments(db, {
    organizationId: principal.organizationId,
    search,
    includePrivate,
    ticketScope: (ticketId) =>
      applyTicketFilters(
        visibleTickets(db, principal.organizationId, { viewerId: principal.userId, seeAll: isOrgAdmin(principal) }),
        filters,
      )
        .select('tickets.id')
        .where('tickets.id', '=', ticketId),
    limit: limit + 1,
    offset: start,
  });
  const ids = ranked.slice(0, limit);
  const [rows, highlights] = await Promise.all([
    findTicketsByIds(db, principal.organizationId, ids),
    highlightTicketDocuments(db, { search, includePrivate, ticketIds: ids, perTicket: HIGHLIGHTED_PARTS }),
  ]);
  // In rank order; a ticket deleted between the two reads is left out.
  const byId = new Map(rows.map((row) => [row.id, row]));
  const present = await presentTickets(
    db,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
  const items: TicketSearchHit[] = present.map((ticket) => ({
    ...ticket,
    highlights: highlights
      .filter((highlight) => highlight.ticketId === ticket.id)
      .map((highlight) => ({
        field: highlight.field,
        commentId: highlight.commentId,
        commentVisibility: highlight.commentId === null ? null : highlight.isPrivate ? 'private' : 'public',
        text: highlight.text,
      })),
  }));
  const next = start + limit;
  return { items, nextCursor: ranked.length > limit && next < MAX_SEARCH_DEPTH ? encodeCursor([next, key]) : null };
}
