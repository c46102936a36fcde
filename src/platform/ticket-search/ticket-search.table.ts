import type { Generated } from 'kysely';

/**
 * One searchable part of a live ticket: the ticket itself (title and description; `comment_id`
 * null) or one of its live comments (`body` is the comment's plain text). Written only by the
 * database triggers of the `2026-11-24T0210_create_ticket_search` migration; the FTS5 table
 * `ticket_search` (SQLite, at each commit: `db/ticket-search-queue.ts`) or the `document` tsvector
 * column (PostgreSQL) indexes it.
 */
export interface TicketSearchDocumentTable {
  id: Generated<number>;
  organization_id: string;
  ticket_id: string;
  comment_id: string | null;
  /** A private comment (internal note): found only by those who may read those. */
  is_private: boolean | number;
  title: string;
  body: string;
}
