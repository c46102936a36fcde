import { describe, expect, it } from 'vitest';
import { filterCount, parseInboxSearch, withFilter, withoutFilters } from './inbox-search';

describe('parseInboxSearch', () => {
  it('keeps the view and every filter of the bar', () => {
    expect(
      parseInboxSearch({
        view: 'builtin:all-open',
        status: 'Open',
        closed: false,
        priority: 'High',
        assignee: 'me',
        team: ['01J0000000000000000000000A', '01J0000000000000000000000B'],
        tag: 'vip',
        sort: '-updatedAt',
      }),
    ).toEqual({
      view: 'builtin:all-open',
      status: 'Open',
      closed: false,
      priority: 'High',
      assignee: 'me',
      team: ['01J0000000000000000000000A', '01J0000000000000000000000B'],
      tag: ['vip'],
      sort: '-updatedAt',
    });
  });

  it('reads what the router JSON-parsed back as text and flags', () => {
    expect(parseInboxSearch({ status: 123, closed: 'true', tag: [42, 'vip', 'vip'] })).toEqual({
      status: '123',
      closed: true,
      tag: ['42', 'vip'],
    });
  });

  it('drops empty, unknown and malformed values', () => {
    expect(
      parseInboxSearch({ view: '', status: '   ', closed: 'maybe', sort: 'title', team: [], tag: [{}], other: 'x' }),
    ).toEqual({});
    expect(parseInboxSearch({ priority: 'x'.repeat(101) })).toEqual({});
  });
});

describe('changing filters', () => {
  const search = parseInboxSearch({ view: 'builtin:my-open', status: 'Open', tag: ['vip'] });

  it('sets and clears one filter, keeping the others and the view', () => {
    expect(withFilter(search, 'priority', 'High')).toEqual({ ...search, priority: 'High' });
    expect(withFilter(search, 'status', undefined)).toEqual({ view: 'builtin:my-open', tag: ['vip'] });
    expect(withFilter(search, 'tag', [])).toEqual({ view: 'builtin:my-open', status: 'Open' });
  });

  it('clears them all but the view, and counts them without the sort', () => {
    expect(filterCount(search)).toBe(2);
    expect(filterCount({ ...search, sort: 'createdAt' })).toBe(2);
    expect(withoutFilters({ ...search, sort: 'createdAt' })).toEqual({ view: 'builtin:my-open' });
    expect(filterCount(withoutFilters(search))).toBe(0);
  });

  it('round-trips through parsing', () => {
    const changed = withFilter(withFilter(search, 'closed', true), 'sort', 'priority');
    expect(parseInboxSearch(changed as Record<string, unknown>)).toEqual(changed);
  });
});
