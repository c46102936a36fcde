/**
 * The sorts of a ticket list (`GET /v1/tickets`, search, saved views), written once for the API,
 * which builds its `sort` parameter from them (`platform/tickets/ticket-filters.ts`), and the
 * console, whose sort menu offers them in this order. The order is the OpenAPI enum's: keep it.
 */
export const TICKET_SORTS = [
  '-createdAt',
  'createdAt',
  '-updatedAt',
  'updatedAt',
  '-priority',
  'priority',
  '-status',
  'status',
  // The ticket's earliest running SLA target first; tickets without one last. Ascending only.
  'slaDueAt',
] as const;
export type TicketSortName = (typeof TICKET_SORTS)[number];

/** The sort of a list that names none: newest first. */
export const DEFAULT_TICKET_SORT: TicketSortName = '-createdAt';
