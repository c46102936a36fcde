import { describe, expect, it } from 'vitest';
import type { PlatformEvent, Ticket } from '../api/types';
import { insertionIndex, matchesQuery, mergeTicketEvent, type TicketPage, ticketOfSlaEvent } from './live-merge';

const ME = '01J00000000000000000000ME0';
const TEAM = '01J0000000000000000000TEAM';

function ticket(id: string, overrides: Partial<Ticket> = {}): Ticket {
  return {
    id,
    ticketId: 1,
    ticketIdentifier: `SUP-${id}`,
    title: `Ticket ${id}`,
    description: null,
    source: null,
    accountId: null,
    account: null,
    statusId: '01J00000000000000000STOPEN',
    status: 'Open',
    isClosed: false,
    priorityId: '01J00000000000000000PRMEDI',
    priority: 'Medium',
    typeId: null,
    type: null,
    teamId: TEAM,
    teamName: 'Support',
    teamIdentifier: 'SUP',
    isPrivate: false,
    assignedAgent: null,
    assignedAgentId: null,
    assignedAgentEmail: null,
    assignedAgentAvatar: null,
    requestorEmail: 'ann@customer.test',
    customerContactId: null,
    customerContactFirstName: null,
    customerContactLastName: null,
    customerContactEmail: null,
    submitterEmail: null,
    metadata: null,
    customFieldValues: [],
    tags: [],
    dueDate: null,
    closedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    deletedAt: null,
    sla: null,
    ...overrides,
  };
}

function event(type: PlatformEvent['type'], data: Ticket): PlatformEvent {
  return { type, data } as PlatformEvent;
}

const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const ids = (pages: TicketPage[]) => pages.flatMap((page) => page.items.map((item) => item.id));

describe('matchesQuery', () => {
  it('checks each filter it can, against display names in any case', () => {
    const open = ticket('1', { assignedAgentId: ME, tags: [{ id: '01J0000000000000000000TAG1', name: 'VIP', color: null }] });
    expect(matchesQuery(open, { isClosed: false, assignedAgentId: 'me', teamId: [TEAM] }, ME)).toBe(true);
    expect(matchesQuery(open, { isClosed: true }, ME)).toBe(false);
    expect(matchesQuery(open, { assignedAgentId: 'none' }, ME)).toBe(false);
    expect(matchesQuery(open, { teamId: ['01J0000000000000000000OTHR'] }, ME)).toBe(false);
    expect(matchesQuery(open, { statusName: 'open', priorityName: 'MEDIUM', tag: ['vip'] }, ME)).toBe(true);
    expect(matchesQuery(open, { tag: ['01J0000000000000000000TAG1'] }, ME)).toBe(true);
    expect(matchesQuery(open, { tag: ['billing'] }, ME)).toBe(false);
    expect(matchesQuery(open, { requestorEmail: 'ANN@customer.test', createdAfter: at(0), createdBefore: at(1) }, ME)).toBe(true);
    expect(matchesQuery(open, { updatedAfter: at(5) }, ME)).toBe(false);
  });

  it('cannot tell a status named by its key, or a custom field, and says so; a definite miss still wins', () => {
    const inProgress = ticket('1', { status: 'In progress' });
    expect(matchesQuery(inProgress, { statusName: 'in_progress' }, ME)).toBeUndefined();
    expect(matchesQuery(inProgress, { 'cf.01J0000000000000000000000C': 'gold' }, ME)).toBeUndefined();
    expect(matchesQuery(inProgress, { slaDueWithin: 60 }, ME)).toBeUndefined();
    expect(matchesQuery(inProgress, { slaBreached: false }, ME)).toBeUndefined();
    expect(matchesQuery(inProgress, { statusName: 'in_progress', isClosed: true }, ME)).toBe(false);
    expect(matchesQuery(ticket('2', { deletedAt: at(3) }), {}, ME)).toBe(false);
  });
});

describe('insertionIndex', () => {
  const items = [ticket('c', { createdAt: at(30) }), ticket('b', { createdAt: at(20) }), ticket('a', { createdAt: at(10) })];

  it('places a ticket by its sort key in either direction, past the loaded rows only when the list is complete', () => {
    expect(insertionIndex(items, ticket('d', { createdAt: at(40) }), '-createdAt', false)).toBe(0);
    expect(insertionIndex(items, ticket('d', { createdAt: at(15) }), '-createdAt', false)).toBe(2);
    expect(insertionIndex(items, ticket('d', { createdAt: at(5) }), '-createdAt', false)).toBe('unloaded');
    expect(insertionIndex(items, ticket('d', { createdAt: at(5) }), '-createdAt', true)).toBe(3);
    expect(insertionIndex([...items].reverse(), ticket('d', { createdAt: at(15) }), 'createdAt', false)).toBe(1);
  });

  it('breaks ties on the id and leaves the sorts by team options to the server', () => {
    expect(insertionIndex(items, ticket('bb', { createdAt: at(20) }), '-createdAt', false)).toBe(1);
    expect(insertionIndex(items, ticket('d'), '-priority', false)).toBeUndefined();
    expect(insertionIndex(items, ticket('d'), 'slaDueAt', false)).toBeUndefined();
  });
});

describe('mergeTicketEvent', () => {
  const query = { isClosed: false, sort: '-createdAt' as const };
  const pages: TicketPage[] = [
    { items: [ticket('c', { createdAt: at(30) }), ticket('b', { createdAt: at(20) })], nextCursor: 'next' },
    { items: [ticket('a', { createdAt: at(10) })], nextCursor: null },
  ];

  it('inserts a created ticket that matches where the sort puts it', () => {
    const result = mergeTicketEvent(pages, event('ticket.created', ticket('d', { createdAt: at(25) })), query, ME);
    expect(ids(result.pages)).toEqual(['c', 'd', 'b', 'a']);
    expect(result.refetch).toBe(false);
    expect(ids(mergeTicketEvent(pages, event('ticket.created', ticket('z', { createdAt: at(1) })), query, ME).pages)).toEqual([
      'c',
      'b',
      'a',
      'z',
    ]);
  });

  it('ignores a created ticket the filters exclude, and asks for a refetch when it cannot tell', () => {
    const closed = mergeTicketEvent(pages, event('ticket.created', ticket('d', { isClosed: true })), query, ME);
    expect(closed).toEqual({ pages, refetch: false });
    const unknown = mergeTicketEvent(pages, event('ticket.created', ticket('d')), { ...query, statusName: 'new' }, ME);
    expect(unknown.refetch).toBe(true);
    const bySeverity = mergeTicketEvent(pages, event('ticket.created', ticket('d')), { sort: '-priority' }, ME);
    expect(bySeverity.refetch).toBe(true);
  });

  it('updates a changed ticket in place, and drops it when it leaves the filters or is deleted', () => {
    const renamed = mergeTicketEvent(
      pages,
      event('ticket.updated', ticket('b', { createdAt: at(20), title: 'Renamed' })),
      query,
      ME,
    );
    expect(ids(renamed.pages)).toEqual(['c', 'b', 'a']);
    expect(renamed.pages[0]?.items[1]?.title).toBe('Renamed');
    const closed = mergeTicketEvent(pages, event('ticket.status_changed', ticket('b', { isClosed: true })), query, ME);
    expect(ids(closed.pages)).toEqual(['c', 'a']);
    expect(ids(mergeTicketEvent(pages, event('ticket.deleted', ticket('a')), query, ME).pages)).toEqual(['c', 'b']);
  });

  it('brings in a ticket that starts matching (reopened, assigned to me)', () => {
    const mine = { assignedAgentId: 'me', sort: '-createdAt' as const };
    const assigned = mergeTicketEvent([], event('ticket.assigned', ticket('d', { assignedAgentId: ME })), mine, ME);
    expect(assigned.refetch).toBe(false);
    const loaded = mergeTicketEvent(
      [{ items: [], nextCursor: null }],
      event('ticket.assigned', ticket('d', { assignedAgentId: ME })),
      mine,
      ME,
    );
    expect(ids(loaded.pages)).toEqual(['d']);
  });

  it('leaves the list alone for other events, a chat visitor coming, going or typing among them', () => {
    expect(mergeTicketEvent(pages, { type: 'comment.created', data: { id: 'x' } } as PlatformEvent, query, ME)).toEqual({
      pages,
      refetch: false,
    });
    const visitor = { ticketId: 'a', online: true, typing: true, lastSeenAt: at(1) };
    for (const type of ['chat.visitor_presence', 'chat.visitor_typing'] as const) {
      const merged = mergeTicketEvent(pages, { type, data: visitor } as PlatformEvent, query, ME);
      expect(merged).toEqual({ pages, refetch: false });
      expect(merged.pages).toBe(pages);
    }
  });
});

describe('ticketOfSlaEvent', () => {
  const pages: TicketPage[] = [{ items: [ticket('1'), ticket('2')], nextCursor: null }];
  const sla = (type: PlatformEvent['type'], ticketId: unknown) =>
    ({ type, data: { ticketId, metric: 'firstReply', dueAt: at(0), breachedAt: at(0) } }) as unknown as PlatformEvent;

  it('names a ticket the list shows on a warning or a breach, to read anew', () => {
    expect(ticketOfSlaEvent(pages, sla('sla.breached', '2'), {})).toBe('2');
    expect(ticketOfSlaEvent(pages, sla('sla.warning', '1'), { isClosed: false })).toBe('1');
  });

  it('names any ticket when the list filters on SLA state, which may now hold it, and none otherwise', () => {
    expect(ticketOfSlaEvent(pages, sla('sla.breached', '9'), {})).toBeUndefined();
    expect(ticketOfSlaEvent(pages, sla('sla.breached', '9'), { slaBreached: true })).toBe('9');
    expect(ticketOfSlaEvent(pages, sla('sla.warning', '9'), { slaDueWithin: 60 })).toBe('9');
    expect(ticketOfSlaEvent(pages, event('ticket.updated', ticket('1')), {})).toBeUndefined();
    expect(ticketOfSlaEvent(pages, sla('sla.breached', null), { slaBreached: true })).toBeUndefined();
  });
});
