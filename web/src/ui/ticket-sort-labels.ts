import type { TicketSortName } from '../../../src/shared/ticket-sorts';

/** What a sort menu calls each ticket sort (`src/shared/ticket-sorts.ts`): the inbox's filter bar, saved views. */
export const TICKET_SORT_LABELS: Record<TicketSortName, string> = {
  '-createdAt': 'Newest',
  createdAt: 'Oldest',
  '-updatedAt': 'Recently updated',
  updatedAt: 'Least recently updated',
  '-priority': 'Priority, highest first',
  priority: 'Priority, lowest first',
  '-status': 'Status, last first',
  status: 'Status, first first',
  slaDueAt: 'SLA due soonest',
};
