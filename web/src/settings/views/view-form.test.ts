import { describe, expect, it } from 'vitest';
import type { TicketView } from '../../api/types';
import { ANY_OPEN, EMPTY_VIEW, otherFilters, viewBody, viewFormValues } from './view-form';

const saved: TicketView = {
  id: '01JB2Z3M4N5P6Q7R8S9T0V1W2A',
  name: 'Urgent billing',
  filters: {
    statusId: '01JB2Z3M4N5P6Q7R8S9T0V1W2B',
    priorityName: 'Urgent',
    tag: ['vip'],
    'cf.01JB2Z3M4N5P6Q7R8S9T0V1W2C': 'gold',
  } as unknown as TicketView['filters'],
  sort: '-priority',
  teamId: '01JB2Z3M4N5P6Q7R8S9T0V1W2D',
  ownerId: '01JB2Z3M4N5P6Q7R8S9T0V1W2E',
  isBuiltIn: false,
  ticketCount: 3,
  ticketCountIsCapped: false,
  createdAt: '2026-11-29T00:00:00.000Z',
  updatedAt: '2026-11-29T00:00:00.000Z',
};

describe('the view form', () => {
  it('saves back what it shows and keeps the filters it does not edit', () => {
    const body = viewBody(viewFormValues(saved), otherFilters(saved.filters));
    expect(body).toEqual({ name: saved.name, teamId: saved.teamId, sort: saved.sort, filters: saved.filters });
  });

  it('turns "any open status" into isClosed and leaves out the filters left empty', () => {
    const values = { ...EMPTY_VIEW, name: 'Open', filters: { ...EMPTY_VIEW.filters, status: ANY_OPEN, requestorEmail: ' ' } };
    expect(viewBody(values)).toEqual({ name: 'Open', teamId: null, sort: '-createdAt', filters: { isClosed: false } });
  });
});
