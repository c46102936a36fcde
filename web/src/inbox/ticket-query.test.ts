import { describe, expect, it } from 'vitest';
import { ticketQueryOf } from './ticket-query';

const TEAM_A = '01J0000000000000000000000A';
const TEAM_B = '01J0000000000000000000000B';

describe('ticketQueryOf', () => {
  it("is the view's filters and sort when the bar is empty", () => {
    expect(ticketQueryOf({ filters: { assignedAgentId: 'me', isClosed: false }, sort: '-updatedAt' }, {})).toEqual({
      assignedAgentId: 'me',
      isClosed: false,
      sort: '-updatedAt',
    });
  });

  it('maps each filter of the bar to its parameter, replacing the view’s own', () => {
    const view = {
      filters: { statusId: '01J000000000000000000000ST', isClosed: false, teamId: [TEAM_A] },
      sort: 'createdAt' as const,
    };
    expect(
      ticketQueryOf(view, {
        status: 'Pending',
        closed: true,
        priority: 'High',
        assignee: 'none',
        team: [TEAM_B],
        tag: ['vip', 'billing'],
        sort: '-priority',
      }),
    ).toEqual({
      statusName: 'Pending',
      isClosed: true,
      priorityName: 'High',
      assignedAgentId: 'none',
      teamId: [TEAM_B],
      tag: ['vip', 'billing'],
      sort: '-priority',
    });
  });

  it('keeps custom-field filters of a saved view and defaults the sort to newest first', () => {
    const query = ticketQueryOf({ filters: { 'cf.01J0000000000000000000000C': 'gold' } }, {});
    expect(query).toEqual({ 'cf.01J0000000000000000000000C': 'gold', sort: '-createdAt' });
    expect(ticketQueryOf(undefined, { priority: 'Low' })).toEqual({ priorityName: 'Low', sort: '-createdAt' });
  });

  it('selects nothing for a view of no team (the API would read an empty list as every team)', () => {
    expect(ticketQueryOf({ filters: { assignedAgentId: 'none', teamId: [] }, sort: 'createdAt' }, {})).toBeNull();
    expect(ticketQueryOf({ filters: { teamId: [] }, sort: 'createdAt' }, { team: [TEAM_A] })).toBeNull();
  });
});
