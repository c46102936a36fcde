import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

type Page = { data: { id: string; title: string }[]; nextCursor: string | null };

/**
 * `GET /v1/tickets` by SLA: `slaDueBefore`, `slaDueWithin`, `slaBreached` (at the request's clock),
 * `sort=slaDueAt` with its keyset pages, and the built-in view "Breaching soon". A calendar-time
 * policy: a High ticket's first reply is due an hour after creation, its resolution eight.
 */
describe.each(DIALECTS)('tickets by SLA due time on %s', (dialect) => {
  let harness: TestApp;
  let org: TestOrganization;
  const ids: Record<string, string> = {};

  const at = (time: string) => harness.clock.set(`2026-01-15T${time}:00.000Z`);
  const get = (url: string) => harness.app.inject({ url, headers: org.headers });
  const send = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
    const response = await harness.app.inject({ method, url, headers: org.headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data as { id: string };
  };
  const titles = (page: Page) => page.data.map((ticket) => ticket.title);
  const list = async (query: string) => {
    const response = await get(`/v1/tickets?limit=100&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return titles(response.json() as Page);
  };
  /** Every page of a list, following nextCursor. */
  async function walk(url: string): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const response = await get(cursor ? `${url}&cursor=${cursor}` : url);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as Page;
      pages.push(titles(page));
      cursor = page.nextCursor;
    } while (cursor && pages.length < 20);
    return pages;
  }
  /** Titles in id order: the tiebreak of tickets due at the same time, or without SLA. */
  const byId = (...names: string[]) => [...names].sort((a, b) => ((ids[a] ?? '') < (ids[b] ?? '') ? -1 : 1));

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    at('08:00');
    org = await makeOrganization(harness);
    const { teamId } = await makeTeam(harness, org);
    await send('POST', '/v1/sla-policies', {
      name: 'Calendar',
      businessHours: false,
      targets: { high: { firstReply: 60, resolution: 480 } },
    });
    const create = async (title: string, priorityName: string) => {
      ids[title] = (await send('POST', '/v1/tickets', { title, requestorEmail: 'c@example.com', teamId, priorityName })).id;
    };
    at('09:00');
    await create('A', 'High'); // first reply due 10:00
    await create('B', 'High'); // due 10:00 too: the id decides
    await create('Low1', 'Low'); // no target: last
    await create('Held', 'High'); // paused on hold: no running target, last
    await create('Replied', 'High'); // first reply met at 09:10: resolution due 17:00
    at('09:10');
    await send('PATCH', `/v1/tickets/${ids.Held}`, { statusName: 'On hold' });
    await send('POST', `/v1/tickets/${ids.Replied}/comment`, { content: 'On it' });
    at('09:30');
    await create('C', 'High'); // due 10:30
    await create('Low2', 'Low');
    // Another organization's ticket due first never shows.
    const other = await makeOrganization(harness);
    const otherTeam = await makeTeam(harness, other);
    at('08:00');
    await harness.app.inject({
      method: 'POST',
      url: '/v1/sla-policies',
      headers: other.headers,
      payload: { name: 'Other', businessHours: false, targets: { high: { firstReply: 5 } } },
    });
    await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: other.headers,
      payload: { title: 'Other', requestorEmail: 'o@example.com', teamId: otherTeam.teamId, priorityName: 'High' },
    });
  });
  afterAll(() => harness?.close());

  it('sorts by the earliest running due time, tickets without one last, and keyset pages agree across ties', async () => {
    at('09:45');
    const expected = [...byId('A', 'B'), 'C', 'Replied', ...byId('Held', 'Low1', 'Low2')];
    expect(await list('sort=slaDueAt')).toEqual(expected);
    for (const limit of [1, 2, 3]) {
      const pages = await walk(`/v1/tickets?sort=slaDueAt&limit=${limit}`);
      expect(pages.flat()).toEqual(expected);
      expect(pages.every((page) => page.length <= limit)).toBe(true);
    }
    // `page` numbers read the same order.
    const second = await get('/v1/tickets?sort=slaDueAt&limit=2&page=1');
    expect(titles(second.json() as Page)).toEqual(expected.slice(2, 4));
    // Another sort's cursor is refused.
    const first = (await get('/v1/tickets?limit=1')).json() as Page;
    const refused = await get(`/v1/tickets?sort=slaDueAt&limit=1&cursor=${first.nextCursor}`);
    expect(refused.statusCode).toBe(400);
  });

  it('filters tickets with a running target due before an instant, or within minutes of the clock', async () => {
    at('09:45');
    expect(await list('slaDueBefore=2026-01-15T10:15:00Z&sort=slaDueAt')).toEqual(byId('A', 'B'));
    expect(await list('slaDueBefore=2026-01-15T11:15:00%2B01:00&sort=slaDueAt')).toEqual(byId('A', 'B'));
    expect(await list('slaDueWithin=60&sort=slaDueAt')).toEqual([...byId('A', 'B'), 'C']);
    expect(await list('slaDueWithin=10')).toEqual([]);
    // The earlier of the two wins.
    expect(await list('slaDueWithin=60&slaDueBefore=2026-01-15T10:01:00Z&sort=slaDueAt')).toEqual(byId('A', 'B'));
    // Combined with the other filters (AND).
    expect(await list('slaDueWithin=600&priorityName=Low')).toEqual([]);
  });

  it('reads breached at the request clock: marked breached, or running past due', async () => {
    at('09:59');
    expect(await list('slaBreached=true')).toEqual([]);
    at('10:10');
    expect(await list('slaBreached=true&sort=slaDueAt')).toEqual(byId('A', 'B'));
    expect(await list('slaBreached=false&sort=slaDueAt')).toEqual(['C', 'Replied', ...byId('Held', 'Low1', 'Low2')]);
  });

  it('keeps a breached target met late as breached, and no longer running', async () => {
    // The late reply marks A's first reply breached, then met: its clock stops; B still runs past due.
    at('10:20');
    await send('POST', `/v1/tickets/${ids.A}/comment`, { content: 'Sorry for the wait' });
    expect(await list('slaBreached=true&sort=slaDueAt')).toEqual(['B', 'A']);
    expect(await list('slaDueBefore=2026-01-15T10:15:00Z')).toEqual(['B']);
    // A's earliest running target is now its resolution, due 17:00, tied with Replied's.
    expect(await list('sort=slaDueAt')).toEqual(['B', 'C', ...byId('A', 'Replied'), ...byId('Held', 'Low1', 'Low2')]);
    at('10:40');
    expect(await list('slaBreached=true&sort=slaDueAt')).toEqual(['B', 'C', 'A']);
  });

  it('the built-in view "Breaching soon": open tickets due within the hour or breached, with its count', async () => {
    at('10:40');
    const views = await get('/v1/views');
    expect(views.statusCode, views.body).toBe(200);
    const view = (views.json().data as { id: string; name: string; ticketCount: number; filters: object; sort: string }[]).find(
      (candidate) => candidate.id === 'builtin:breaching-soon',
    );
    // B and C run past due; A's running target (resolution) is hours away.
    expect(view).toMatchObject({
      name: 'Breaching soon',
      filters: { isClosed: false, slaDueWithin: 60 },
      sort: 'slaDueAt',
      ticketCount: 2,
    });
    const tickets = await get('/v1/views/builtin:breaching-soon/tickets?limit=1');
    expect(tickets.statusCode, tickets.body).toBe(200);
    expect(titles(tickets.json() as Page)).toEqual(['B']);
    // The next page, read a minute later, belongs to the same list.
    at('10:41');
    const cursor = (tickets.json() as Page).nextCursor;
    const next = await get(`/v1/views/builtin:breaching-soon/tickets?limit=1&cursor=${cursor}`);
    expect(next.statusCode, next.body).toBe(200);
    expect(titles(next.json() as Page)).toEqual(['C']);
    // Closed tickets leave it.
    await send('PATCH', `/v1/tickets/${ids.C}`, { statusName: 'Closed' });
    const single = await get('/v1/views/builtin:breaching-soon');
    expect(single.json().data.ticketCount).toBe(1);
    await send('PATCH', `/v1/tickets/${ids.C}`, { statusName: 'Open' });
  });

  it('saves the SLA filters and sort in a view', async () => {
    at('10:40');
    const created = await harness.app.inject({
      method: 'POST',
      url: '/v1/views',
      headers: org.headers,
      payload: { name: 'Breached', filters: { slaBreached: true }, sort: 'slaDueAt' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ filters: { slaBreached: true }, sort: 'slaDueAt', ticketCount: 3 });
    const bad = await harness.app.inject({
      method: 'POST',
      url: '/v1/views',
      headers: org.headers,
      payload: { name: 'Bad', filters: { slaDueWithin: -5 } },
    });
    expect(bad.statusCode).toBe(400);
  });

  it.each([
    ['slaDueBefore=tomorrow', 'slaDueBefore must be a valid date-time'],
    ['slaDueBefore=2026-13-45T10:00:00Z', 'slaDueBefore must be a valid date-time'],
    ['slaBreached=maybe', 'slaBreached must be a boolean'],
    ['slaDueWithin=-1', 'slaDueWithin must be at least 0'],
    ['slaDueWithin=1.5', 'slaDueWithin must be a whole number'],
    ['sort=-slaDueAt', 'sort has an invalid value'],
  ])('refuses %s in the platform error shape', async (query, message) => {
    const response = await get(`/v1/tickets?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });
});
