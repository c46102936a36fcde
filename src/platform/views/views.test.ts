import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { insertTeamMember } from '../teams/team.repository.js';

type Headers = { 'x-api-key': string };
interface View {
  id: string;
  name: string;
  isBuiltIn: boolean;
  ticketCount: number | null;
  ticketCountIsCapped: boolean;
  filters: Record<string, unknown>;
  sort: string;
}

describe.each(DIALECTS)('saved views on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let billing: TestTeam;
  let mia: Awaited<ReturnType<typeof makeUser>>;
  let olaf: Awaited<ReturnType<typeof makeUser>>;
  /** Tickets by name: what each is, to compute what a view should select. */
  const tickets: Record<string, { id: string }> = {};

  const send = (method: 'POST' | 'GET' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    harness.app.inject({ method, url, headers, ...(payload && { payload }) });
  const createView = (headers: Headers, payload: object) => send('POST', '/v1/views', headers, payload);
  const views = async (headers: Headers) => (await send('GET', '/v1/views?limit=50', headers)).json().data as View[];
  const viewTickets = async (viewId: string, headers: Headers, query = '') => {
    const response = await send('GET', `/v1/views/${viewId}/tickets${query}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: { id: string }[]; nextCursor: string | null };
  };
  const ids = (...names: string[]) => names.map((name) => tickets[name]?.id);

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'WED' });
    billing = await makeTeam(harness, acme, { name: 'Billing', identifier: 'BILL' });
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia Member', email: 'mia@acme.test' });
    olaf = await makeUser(harness, acme.organizationId, { name: 'Olaf Outsider', email: 'olaf@acme.test' });
    await insertTeamMember(harness.db, {
      team_id: desk.teamId,
      user_id: mia.userId,
      organization_id: acme.organizationId,
      is_admin: false,
      invited_by_id: null,
      joined_at: TEST_NOW,
    });
    // In creation order (ids ascending): what each ticket is.
    const plan: [string, object][] = [
      ['deskMiaOpen', { teamId: desk.teamId, assignedAgentId: mia.userId }],
      ['deskMiaClosed', { teamId: desk.teamId, assignedAgentId: mia.userId, statusName: 'Closed' }],
      ['deskUnassigned', { teamId: desk.teamId }],
      ['deskUnassignedProgress', { teamId: desk.teamId, statusName: 'In progress' }],
      ['deskUnassignedClosed', { teamId: desk.teamId, statusName: 'Closed' }],
      ['billingUnassigned', { teamId: billing.teamId }],
      ['billingPrivate', { teamId: billing.teamId, isPrivate: true }],
      ['billingMiaPrivate', { teamId: billing.teamId, isPrivate: true, assignedAgentId: mia.userId }],
      ['billingOlafClosed', { teamId: billing.teamId, assignedAgentId: olaf.userId, statusName: 'Closed' }],
    ];
    for (const [name, payload] of plan) {
      const response = await send('POST', '/v1/tickets', acme.headers, {
        title: name,
        requestorEmail: 'pat@customer.test',
        performRouting: false,
        ...payload,
      });
      expect(response.statusCode, response.body).toBe(201);
      tickets[name] = response.json().data;
    }
  });
  afterAll(() => harness.close());

  it('lists the built-in views first, with stable ids and counts of what the caller may see', async () => {
    const forMia = await views(mia.headers);
    expect(forMia.slice(0, 4).map((view) => [view.id, view.name, view.isBuiltIn])).toEqual([
      ['builtin:my-open', 'My open tickets', true],
      ['builtin:unassigned', 'Unassigned in my teams', true],
      ['builtin:all-open', 'All open', true],
      ['builtin:recently-updated', 'Recently updated', true],
    ]);
    // No SLA policy here: "Breaching soon" selects nothing (its tickets: ticket-sla-lists.test.ts).
    expect(forMia[4]).toMatchObject({ id: 'builtin:breaching-soon', name: 'Breaching soon', ticketCount: 0 });
    // Mia is in Desk only: she sees Billing's public tickets and the private one assigned to her.
    expect(forMia.slice(0, 4).map((view) => view.ticketCount)).toEqual([2, 2, 5, 8]);
    const myOpen = await viewTickets('builtin:my-open', mia.headers);
    expect(myOpen.data.map((row) => row.id).sort()).toEqual(ids('deskMiaOpen', 'billingMiaPrivate').sort());
    // Oldest first: the queue.
    expect((await viewTickets('builtin:unassigned', mia.headers)).data.map((row) => row.id)).toEqual(
      ids('deskUnassigned', 'deskUnassignedProgress'),
    );
    const allOpen = await viewTickets('builtin:all-open', mia.headers);
    expect(allOpen.data.map((row) => row.id)).toEqual(
      ids('billingMiaPrivate', 'billingUnassigned', 'deskUnassignedProgress', 'deskUnassigned', 'deskMiaOpen'),
    );
    // The admin sees every ticket, and is in both teams.
    const forAdmin = await views(acme.headers);
    expect(forAdmin.slice(0, 4).map((view) => view.ticketCount)).toEqual([0, 4, 6, 9]);
    // Olaf is in no team: nothing is unassigned in his teams; his closed ticket is not open.
    const forOlaf = await views(olaf.headers);
    expect(forOlaf.slice(0, 4).map((view) => view.ticketCount)).toEqual([0, 0, 4, 7]);
    expect((await viewTickets('builtin:unassigned', olaf.headers)).data).toEqual([]);
    const one = await send('GET', '/v1/views/builtin:all-open', olaf.headers);
    expect(one.json().data).toMatchObject({
      id: 'builtin:all-open',
      filters: { isClosed: false },
      sort: '-createdAt',
      teamId: null,
      ownerId: null,
      ticketCount: 4,
      ticketCountIsCapped: false,
      createdAt: null,
    });
    expect((await send('GET', '/v1/views/builtin:nope', olaf.headers)).statusCode).toBe(404);
    expect((await send('PATCH', '/v1/views/builtin:all-open', acme.headers, { name: 'Mine' })).statusCode).toBe(403);
    expect((await send('DELETE', '/v1/views/builtin:my-open', acme.headers)).statusCode).toBe(403);
  });

  it('saves a personal view with the filters and sort of GET /v1/tickets, counted and paged like it', async () => {
    const created = await createView(mia.headers, {
      name: '  Desk backlog ',
      filters: { teamId: [desk.teamId], isClosed: false },
      sort: 'createdAt',
    });
    expect(created.statusCode, created.body).toBe(201);
    const view = created.json().data;
    expect(view).toMatchObject({
      name: 'Desk backlog',
      filters: { teamId: [desk.teamId], isClosed: false },
      sort: 'createdAt',
      teamId: null,
      ownerId: mia.userId,
      isBuiltIn: false,
      ticketCount: 3,
      ticketCountIsCapped: false,
      createdAt: TEST_NOW,
    });
    const first = await viewTickets(view.id, mia.headers, '?limit=2');
    expect(first.data.map((row) => row.id)).toEqual(ids('deskMiaOpen', 'deskUnassigned'));
    const second = await viewTickets(view.id, mia.headers, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.data.map((row) => row.id)).toEqual(ids('deskUnassignedProgress'));
    expect(second.nextCursor).toBeNull();
    // The same as GET /v1/tickets with those parameters.
    const list = await send('GET', `/v1/tickets?teamId=${desk.teamId}&isClosed=false&sort=createdAt`, mia.headers);
    expect(list.json().data.map((row: { id: string }) => row.id)).toEqual(
      ids('deskMiaOpen', 'deskUnassigned', 'deskUnassignedProgress'),
    );
    // A cursor of another list is refused.
    const foreignCursor = (await viewTickets('builtin:all-open', mia.headers, '?limit=1')).nextCursor;
    const refused = await send('GET', `/v1/views/${view.id}/tickets?cursor=${foreignCursor}`, mia.headers);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('cursor');
    expect((await send('GET', `/v1/views/${view.id}/tickets?cursor=garbage`, mia.headers)).statusCode).toBe(400);

    const changed = await send('PATCH', `/v1/views/${view.id}`, mia.headers, { filters: { statusName: 'in progress' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ filters: { statusName: 'in progress' }, sort: 'createdAt', ticketCount: 1 });
    expect((await views(mia.headers)).map((row) => row.id)).toContain(view.id);

    for (const headers of [olaf.headers, acme.headers, globex.headers]) {
      expect((await send('GET', `/v1/views/${view.id}`, headers)).statusCode).toBe(404);
      expect((await send('GET', `/v1/views/${view.id}/tickets`, headers)).statusCode).toBe(404);
      expect((await send('PATCH', `/v1/views/${view.id}`, headers, { name: 'Mine' })).statusCode).toBe(404);
      expect((await send('DELETE', `/v1/views/${view.id}`, headers)).statusCode).toBe(404);
      expect((await views(headers)).map((row) => row.id)).not.toContain(view.id);
    }
    const deleted = await send('DELETE', `/v1/views/${view.id}`, mia.headers);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.id).toBe(view.id);
    expect((await send('GET', `/v1/views/${view.id}`, mia.headers)).statusCode).toBe(404);
  });

  it('refuses bad filters and sorts: 400 naming the field, another organization ids 404, nothing saved', async () => {
    const globexTeam = await makeTeam(harness, globex, { identifier: 'GLO' });
    const before = (await views(acme.headers)).length;
    const cases: [object, number, string][] = [
      [{ name: 'x', filters: { statusName: 'Pending forever' } }, 400, 'filters.statusName'],
      [{ name: 'x', filters: { createdAfter: 'yesterday' } }, 400, 'createdAfter'],
      [{ name: 'x', filters: { isClosed: 'maybe' } }, 400, 'isClosed'],
      [{ name: 'x', filters: { assignedAgentId: 'someone' } }, 400, 'assignedAgentId'],
      [{ name: 'x', filters: { teamId: desk.teamId } }, 400, 'teamId'],
      [{ name: 'x', filters: { teamId: [] } }, 400, 'filters.teamId'],
      [{ name: 'x', filters: { color: 'red' } }, 400, 'color'],
      [{ name: 'x', filters: { page: 2 } }, 400, 'page'],
      [{ name: 'x', sort: 'title' }, 400, 'sort'],
      [{ name: '  ' }, 400, 'name'],
      [{ name: 'x', filters: { teamId: [globexTeam.teamId] } }, 404, 'Team not found!'],
      [{ name: 'x', filters: { assignedAgentId: globex.userId } }, 404, 'User not found!'],
      [{ name: 'x', teamId: globexTeam.teamId }, 404, 'Team not found!'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await createView(acme.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().message, JSON.stringify(payload)).toContain(message);
    }
    expect((await views(acme.headers)).length).toBe(before);
    const view = (await createView(acme.headers, { name: 'Fine' })).json().data;
    const patched = await send('PATCH', `/v1/views/${view.id}`, acme.headers, { filters: { priorityName: 'Whenever' } });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().message).toContain('filters.priorityName');
    expect((await send('GET', `/v1/views/${view.id}`, acme.headers)).json().data.filters).toEqual({});
    expect((await send('GET', `/v1/views/${view.id}`, globex.headers)).statusCode).toBe(404);
  });

  it('shares a view with a team: its members see it, counted for each, and only admins manage it', async () => {
    const byMember = await createView(mia.headers, { name: 'Shared', teamId: desk.teamId });
    expect(byMember.statusCode).toBe(403);
    const created = await createView(acme.headers, {
      name: 'Mine to do',
      teamId: desk.teamId,
      filters: { assignedAgentId: 'me', isClosed: false },
      sort: '-updatedAt',
    });
    expect(created.statusCode, created.body).toBe(201);
    const view = created.json().data;
    expect(view).toMatchObject({ teamId: desk.teamId, ownerId: acme.userId, ticketCount: 0 });
    // `me` is whoever looks at the view.
    const forMia = (await send('GET', `/v1/views/${view.id}`, mia.headers)).json().data;
    expect(forMia.ticketCount).toBe(2);
    expect((await viewTickets(view.id, mia.headers)).data.map((row) => row.id).sort()).toEqual(
      ids('deskMiaOpen', 'billingMiaPrivate').sort(),
    );
    expect((await views(mia.headers)).map((row) => row.id)).toContain(view.id);
    expect((await send('GET', `/v1/views/${view.id}`, olaf.headers)).statusCode).toBe(404);
    expect((await views(olaf.headers)).map((row) => row.id)).not.toContain(view.id);
    expect((await send('PATCH', `/v1/views/${view.id}`, mia.headers, { name: 'Hers' })).statusCode).toBe(403);
    expect((await send('DELETE', `/v1/views/${view.id}`, mia.headers)).statusCode).toBe(403);
    const renamed = await send('PATCH', `/v1/views/${view.id}`, acme.headers, { name: 'Assigned to me' });
    expect(renamed.json().data).toMatchObject({ name: 'Assigned to me', filters: { assignedAgentId: 'me', isClosed: false } });
  });

  it('counts only the tickets the caller may see, as the list shows them', async () => {
    const everything = (
      await createView(acme.headers, { name: 'Billing, all', teamId: billing.teamId, filters: { teamId: [billing.teamId] } })
    ).json().data;
    expect(everything.ticketCount).toBe(4);
    await send('POST', `/v1/teams/${billing.teamId}/members`, acme.headers, { userId: olaf.userId });
    const forOlaf = (await send('GET', `/v1/views/${everything.id}`, olaf.headers)).json().data;
    const listed = (await viewTickets(everything.id, olaf.headers, '?limit=100')).data;
    expect(forOlaf.ticketCount).toBe(listed.length);
    const viaList = (await send('GET', `/v1/tickets?teamId=${billing.teamId}&limit=100`, olaf.headers)).json().data;
    expect(listed.map((row) => row.id)).toEqual(viaList.map((row: { id: string }) => row.id));
    const mine = (await createView(mia.headers, { name: 'Billing for Mia', filters: { teamId: [billing.teamId] } })).json().data;
    // Mia is not in Billing: its private ticket assigned to someone else stays hidden, hers shows.
    expect(mine.ticketCount).toBe(3);
    expect((await viewTickets(mine.id, mia.headers)).data.map((row) => row.id)).not.toContain(tickets.billingPrivate?.id);
  });

  it('keeps a view whose team was archived: no count, and its tickets say why (409)', async () => {
    const temporary = await makeTeam(harness, acme, { name: 'Temporary', identifier: 'TMP' });
    const view = (await createView(acme.headers, { name: 'Temporary', filters: { teamId: [temporary.teamId] } })).json().data;
    expect(view.ticketCount).toBe(0);
    await harness.db.updateTable('teams').set({ archived_at: TEST_NOW }).where('id', '=', temporary.teamId).execute();
    expect((await send('GET', `/v1/views/${view.id}`, acme.headers)).json().data.ticketCount).toBeNull();
    const listed = (await views(acme.headers)).find((row) => row.id === view.id);
    expect(listed?.ticketCount).toBeNull();
    const response = await send('GET', `/v1/views/${view.id}/tickets`, acme.headers);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('Team not found!');
  });

  it('applies concurrent changes of one view one after the other: none is lost', async () => {
    const view = (await createView(acme.headers, { name: 'Busy', filters: { isClosed: false } })).json().data;
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        send(
          'PATCH',
          `/v1/views/${view.id}`,
          acme.headers,
          index % 2 === 0 ? { filters: { statusName: 'In progress' } } : { sort: '-updatedAt' },
        ),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    const after = (await send('GET', `/v1/views/${view.id}`, acme.headers)).json().data;
    expect(after).toMatchObject({ filters: { statusName: 'In progress' }, sort: '-updatedAt', ticketCount: 1 });
  });

  it('pages the saved views by name, the built-in ones on the first page only', async () => {
    const lister = await makeUser(harness, acme.organizationId);
    const names = Array.from({ length: 12 }, (_, index) => `View ${String((index * 5) % 12).padStart(2, '0')}`);
    const created: { id: string; name: string }[] = [];
    for (const name of names) {
      created.push({ id: (await createView(lister.headers, { name })).json().data.id, name });
    }
    const expected = [...created].sort((a, b) => (a.name < b.name ? -1 : 1)).map((row) => row.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await send('GET', `/v1/views?limit=5${cursor ? `&cursor=${cursor}` : ''}`, lister.headers);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      const rows = body.data as View[];
      expect(rows.filter((row) => row.isBuiltIn)).toHaveLength(pages === 0 ? 5 : 0);
      seen.push(...rows.filter((row) => !row.isBuiltIn).map((row) => row.id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
    expect((await send('GET', '/v1/views?cursor=garbage', lister.headers)).statusCode).toBe(400);
    expect((await send('GET', '/v1/views?limit=51', lister.headers)).statusCode).toBe(400);
  });
});
