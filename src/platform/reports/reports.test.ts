import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';

/**
 * A seeded week, every change at a chosen instant (2026-01-12 is a Monday; Paris is UTC+1 and New
 * York UTC-5 in January; both teams open 09:00-17:00 local every day). Durations are under an hour,
 * so the reported bin lower bounds are the exact minutes computed by hand beside each step.
 *
 * Paris (P): T1 created 08:30Z (Paris day 12) for Ann, Ann replies 08:50Z (20 min, business 20),
 *   closed 09:25Z (55, business 55). T2 created 23:30Z on the 12th (Paris day 13, night), nobody
 *   assigned; Ann replies 23:35Z (5, business 0); closed 23:40Z (10, 0); reopened 23:45Z; closed
 *   00:20Z on the 13th (50, 0).
 * New York (N): T3 created 02:00Z on the 13th (New York day 12, 21:00) for Bob, Bob replies 02:30Z
 *   (30, business 0), a private note by Bob (not counted); stays open. T4 created 15:00Z on the 13th
 *   (10:00 local) for Bob, Bob replies 15:40Z (40, 40), closed 15:55Z (55, 55). T5 created 15:00Z on
 *   the 20th, nobody assigned, open.
 */
describe.each(DIALECTS)('reports on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let paris: TestTeam;
  let newYork: TestTeam;
  let ann: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;
  let globexTeam: TestTeam;

  const call = (url: string, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'GET', url, headers });
  async function send(method: 'POST' | 'PATCH', url: string, payload: object, headers: Record<string, string> = acme.headers) {
    const response = await harness.app.inject({ method, url, headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  }
  async function at<T>(instant: string, step: () => Promise<T>): Promise<T> {
    harness.clock.set(instant);
    return step();
  }
  const create = (teamId: string, assignedAgentId?: string) =>
    send('POST', '/v1/tickets', {
      title: 'Printer on fire',
      requestorEmail: 'pat@customer.test',
      teamId,
      performRouting: false,
      ...(assignedAgentId ? { assignedAgentId } : {}),
    });
  const status = (ticketId: string, statusName: string) => send('PATCH', `/v1/tickets/${ticketId}`, { statusName });
  const reply = (ticketId: string, headers: Record<string, string>, extra: object = {}) =>
    send('POST', `/v1/tickets/${ticketId}/comment`, { content: 'On it', ...extra }, headers);
  async function report(name: string, query: string) {
    const response = await call(`/v1/reports/${name}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  async function seed() {
    const t1 = await at('2026-01-12T08:30:00Z', () => create(paris.teamId, ann.userId));
    await at('2026-01-12T08:50:00Z', () => reply(t1.id, ann.headers));
    await at('2026-01-12T09:25:00Z', () => status(t1.id, 'Closed'));
    const t2 = await at('2026-01-12T23:30:00Z', () => create(paris.teamId));
    await at('2026-01-12T23:35:00Z', () => reply(t2.id, ann.headers));
    await at('2026-01-12T23:40:00Z', () => status(t2.id, 'Closed'));
    await at('2026-01-12T23:45:00Z', () => status(t2.id, 'Open'));
    await at('2026-01-13T00:20:00Z', () => status(t2.id, 'Closed'));
    const t3 = await at('2026-01-13T02:00:00Z', () => create(newYork.teamId, bob.userId));
    await at('2026-01-13T02:30:00Z', () => reply(t3.id, bob.headers));
    await at('2026-01-13T02:35:00Z', () => reply(t3.id, bob.headers, { commentType: 'note' }));
    const t4 = await at('2026-01-13T15:00:00Z', () => create(newYork.teamId, bob.userId));
    await at('2026-01-13T15:40:00Z', () => reply(t4.id, bob.headers));
    await at('2026-01-13T15:55:00Z', () => status(t4.id, 'Closed'));
    await at('2026-01-20T15:00:00Z', () => create(newYork.teamId));
  }

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    globexTeam = await makeTeam(harness, globex, { name: 'Elsewhere', identifier: 'ELSE' });
    paris = await makeTeam(harness, acme, { name: 'Paris', identifier: 'PAR' });
    newYork = await makeTeam(harness, acme, { name: 'New York', identifier: 'NYC' });
    ann = await makeUser(harness, acme.organizationId, { name: 'Ann', email: 'ann@acme.test' });
    bob = await makeUser(harness, acme.organizationId, { name: 'Bob', email: 'bob@acme.test' });
    const hours = { commonDailyConfig: true, commonSlots: [{ start: '09:00', end: '17:00' }] };
    await send('PATCH', `/v1/teams/${paris.teamId}/configurations`, { timezone: 'Europe/Paris', ...hours });
    await send('PATCH', `/v1/teams/${newYork.teamId}/configurations`, { timezone: 'America/New_York', ...hours });
    for (const [team, user] of [
      [paris, ann],
      [newYork, bob],
    ] as const) {
      await send('POST', `/v1/teams/${team.teamId}/members`, { userId: user.userId });
    }
    await seed();
  });
  afterAll(() => harness.close());

  const zeroDay = (start: string, backlog: number) => ({ start, created: 0, closed: 0, reopened: 0, backlog });

  it('answers the volume per day in each team’s local days, with the backlog at the end of each', async () => {
    const volume = await report('volume', 'from=2026-01-12&to=2026-01-20');
    expect(volume.series).toEqual([
      { start: '2026-01-12', created: 2, closed: 1, reopened: 0, backlog: 1 },
      { start: '2026-01-13', created: 2, closed: 3, reopened: 1, backlog: 1 },
      ...['14', '15', '16', '17', '18', '19'].map((day) => zeroDay(`2026-01-${day}`, 1)),
      { start: '2026-01-20', created: 1, closed: 0, reopened: 0, backlog: 2 },
    ]);
    expect(volume.totals).toEqual({ created: 5, closed: 4, reopened: 1, backlog: 2 });
  });

  it('answers the volume per week from Monday and per month, and the backlog carried into a later range', async () => {
    expect((await report('volume', 'from=2026-01-12&to=2026-01-20&interval=week')).series).toEqual([
      { start: '2026-01-12', created: 4, closed: 4, reopened: 1, backlog: 1 },
      { start: '2026-01-19', created: 1, closed: 0, reopened: 0, backlog: 2 },
    ]);
    expect(await report('volume', 'from=2026-01-12&to=2026-01-31&interval=month')).toEqual({
      series: [{ start: '2026-01-01', created: 5, closed: 4, reopened: 1, backlog: 2 }],
      totals: { created: 5, closed: 4, reopened: 1, backlog: 2 },
    });
    expect((await report('volume', 'from=2026-01-13&to=2026-01-13')).series).toEqual([
      { start: '2026-01-13', created: 2, closed: 3, reopened: 1, backlog: 1 },
    ]);
  });

  it('filters by team and by agent', async () => {
    expect((await report('volume', `from=2026-01-12&to=2026-01-13&teamId=${paris.teamId}`)).series).toEqual([
      { start: '2026-01-12', created: 1, closed: 1, reopened: 0, backlog: 0 },
      { start: '2026-01-13', created: 1, closed: 2, reopened: 1, backlog: 0 },
    ]);
    expect((await report('volume', `from=2026-01-12&to=2026-01-13&agentId=${bob.userId}`)).series).toEqual([
      { start: '2026-01-12', created: 1, closed: 0, reopened: 0, backlog: 1 },
      { start: '2026-01-13', created: 1, closed: 1, reopened: 0, backlog: 1 },
    ]);
  });

  it("reads the organization's and each team's rollups: they agree with the agents' own counts", async () => {
    const range = 'from=2026-01-01&to=2026-01-31&interval=month';
    const organization = (await report('volume', range)).totals;
    const teams = [(await report('volume', `${range}&teamId=${paris.teamId}`)).totals];
    teams.push((await report('volume', `${range}&teamId=${newYork.teamId}`)).totals);
    for (const name of ['created', 'closed', 'reopened', 'backlog'] as const) {
      expect(teams[0][name] + teams[1][name]).toBe(organization[name]);
    }
    // The agents report reads the agents' rows, the unassigned's among them: the same closes.
    const agents = (await report('agents', range)).totals.agents as { ticketsHandled: number }[];
    expect(agents.reduce((total, agent) => total + agent.ticketsHandled, 0)).toBe(organization.closed);
    const parisAgents = (await report('agents', `${range}&teamId=${paris.teamId}`)).totals.agents as { ticketsHandled: number }[];
    expect(parisAgents.reduce((total, agent) => total + agent.ticketsHandled, 0)).toBe(teams[0].closed);
  });

  it('answers first reply times, calendar and business, by nearest rank', async () => {
    const firstReply = await report('first-reply-time', 'from=2026-01-12&to=2026-01-14');
    expect(firstReply.series).toEqual([
      // T1 20/20 (Paris day 12), T3 30/0 (New York day 12).
      { start: '2026-01-12', count: 2, calendarMedian: 20, calendarP90: 30, businessMedian: 0, businessP90: 20 },
      // T2 5/0, T4 40/40.
      { start: '2026-01-13', count: 2, calendarMedian: 5, calendarP90: 40, businessMedian: 0, businessP90: 40 },
      { start: '2026-01-14', count: 0, calendarMedian: null, calendarP90: null, businessMedian: null, businessP90: null },
    ]);
    expect(firstReply.totals).toEqual({ count: 4, calendarMedian: 20, calendarP90: 40, businessMedian: 0, businessP90: 40 });
  });

  it('answers resolution times, a reopened ticket counted at each close', async () => {
    const resolution = await report('resolution-time', 'from=2026-01-12&to=2026-01-18&interval=week');
    // T1 55/55, T2 10/0 and 50/0, T4 55/55.
    expect(resolution).toEqual({
      series: [{ start: '2026-01-12', count: 4, calendarMedian: 50, calendarP90: 55, businessMedian: 0, businessP90: 55 }],
      totals: { count: 4, calendarMedian: 50, calendarP90: 55, businessMedian: 0, businessP90: 55 },
    });
  });

  it('answers per agent: tickets closed while assigned, public replies, median first reply', async () => {
    const rows = [
      { agentId: null, ticketsHandled: 2, publicReplies: 0, firstReplyMedian: null, slaAttainment: null, goodShare: null },
      ...[
        { agentId: ann.userId, ticketsHandled: 1, publicReplies: 2, firstReplyMedian: 5, slaAttainment: null, goodShare: null },
        { agentId: bob.userId, ticketsHandled: 1, publicReplies: 2, firstReplyMedian: 30, slaAttainment: null, goodShare: null },
      ].sort((a, b) => (a.agentId < b.agentId ? -1 : 1)),
    ];
    // The buckets hold the agents together; each agent, with the median first reply, is in the totals.
    expect(await report('agents', 'from=2026-01-01&to=2026-01-31&interval=month')).toEqual({
      series: [{ start: '2026-01-01', ticketsHandled: 4, publicReplies: 4, slaAttainment: null, goodShare: null }],
      totals: { agents: rows },
    });
    expect(await report('agents', `from=2026-01-12&to=2026-01-13&agentId=${ann.userId}`)).toEqual({
      series: [
        { start: '2026-01-12', ticketsHandled: 1, publicReplies: 1, slaAttainment: null, goodShare: null },
        { start: '2026-01-13', ticketsHandled: 0, publicReplies: 1, slaAttainment: null, goodShare: null },
      ],
      totals: {
        agents: [
          { agentId: ann.userId, ticketsHandled: 1, publicReplies: 2, firstReplyMedian: 5, slaAttainment: null, goodShare: null },
        ],
      },
    });
  });

  it('answers the same as CSV with Accept: text/csv, totals last', async () => {
    const response = await call('/v1/reports/volume?from=2026-01-12&to=2026-01-20&interval=week', {
      ...acme.headers,
      accept: 'text/csv',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="volume-2026-01-12-2026-01-20.csv"');
    expect(response.body).toBe(
      'start,created,closed,reopened,backlog\r\n2026-01-12,4,4,1,1\r\n2026-01-19,1,0,0,2\r\ntotal,5,4,1,2\r\n',
    );
    const times = await call('/v1/reports/first-reply-time?from=2026-01-14&to=2026-01-14', {
      ...acme.headers,
      accept: 'text/csv',
    });
    expect(times.body).toBe(
      'start,count,calendarMedian,calendarP90,businessMedian,businessP90\r\n2026-01-14,0,,,,\r\ntotal,0,,,,\r\n',
    );
  });

  it('lets members read reports too', async () => {
    const response = await call('/v1/reports/volume?from=2026-01-12&to=2026-01-12', ann.headers);
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['a reversed range', 'from=2026-01-13&to=2026-01-12'],
    ['a range over two years', 'from=2026-01-01&to=2028-01-02'],
    ['an unknown interval', 'from=2026-01-01&to=2026-01-02&interval=hour'],
    ['a date that is not one', 'from=2026-02-30&to=2026-03-02'],
    ['a missing from', 'to=2026-03-02'],
    ['an unknown parameter', 'from=2026-01-01&to=2026-01-02&teamName=Paris'],
    ['a team id that is not one', 'from=2026-01-01&to=2026-01-02&teamId=paris'],
  ])('refuses %s with a 400 in the platform’s shape', async (_, query) => {
    const response = await call(`/v1/reports/volume?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, message: expect.any(String) });
  });

  it('answers two years exactly', async () => {
    expect((await call('/v1/reports/volume?from=2026-01-01&to=2028-01-01&interval=month')).statusCode).toBe(200);
  });

  it("answers 404 for an unknown report, another organization's team or user", async () => {
    for (const url of [
      '/v1/reports/nonsense?from=2026-01-01&to=2026-01-02',
      `/v1/reports/volume?from=2026-01-01&to=2026-01-02&teamId=${globexTeam.teamId}`,
      `/v1/reports/agents?from=2026-01-01&to=2026-01-02&agentId=${globex.userId}`,
    ]) {
      const response = await call(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ statusCode: 404 });
    }
  });

  it("counts a macro's public reply and its close, and a reply-only macro's reply", async () => {
    const macros = await makeTeam(harness, acme, { name: 'Macros', identifier: 'MAC' });
    const closing = await send('POST', '/v1/macros', { name: 'Solved', content: 'Fixed.', actions: { statusName: 'Closed' } });
    const replying = await send('POST', '/v1/macros', { name: 'Thanks', content: 'Thanks!' });
    const first = await at('2026-05-04T10:00:00Z', () => create(macros.teamId));
    const second = await at('2026-05-04T10:00:00Z', () => create(macros.teamId));
    await at('2026-05-04T10:12:00Z', () => send('POST', `/v1/tickets/${first.id}/macros/${closing.id}/apply`, {}));
    await at('2026-05-04T10:30:00Z', () => send('POST', `/v1/tickets/${second.id}/macros/${replying.id}/apply`, {}));
    const range = `from=2026-05-04&to=2026-05-04&teamId=${macros.teamId}`;
    expect((await report('volume', range)).totals).toEqual({ created: 2, closed: 1, reopened: 0, backlog: 1 });
    expect((await report('first-reply-time', range)).totals).toEqual({
      count: 2,
      calendarMedian: 12,
      calendarP90: 30,
      // The default hours: weekdays 09:00-17:00 UTC.
      businessMedian: 12,
      businessP90: 30,
    });
    expect((await report('agents', range)).totals.agents).toContainEqual({
      agentId: acme.userId,
      ticketsHandled: 0,
      publicReplies: 2,
      firstReplyMedian: 12,
      slaAttainment: null,
      goodShare: null,
    });
  });

  it('moves the backlog with a reassignment, and takes a deleted ticket out of it without a close', async () => {
    const moves = await makeTeam(harness, acme, { name: 'Moves', identifier: 'MOVE' });
    const kept = await at('2026-04-06T10:00:00Z', () => create(moves.teamId));
    const deleted = await at('2026-04-06T10:05:00Z', () => create(moves.teamId));
    await at('2026-04-06T11:00:00Z', () => send('PATCH', `/v1/tickets/${kept.id}`, { assignedAgentId: acme.userId }));
    const removal = await at('2026-04-06T12:00:00Z', () =>
      harness.app.inject({ method: 'DELETE', url: `/v1/tickets/${deleted.id}`, headers: acme.headers }),
    );
    expect(removal.statusCode, removal.body).toBe(200);
    const range = `from=2026-04-06&to=2026-04-06&teamId=${moves.teamId}`;
    expect((await report('volume', range)).totals).toEqual({ created: 2, closed: 0, reopened: 0, backlog: 1 });
    expect((await report('volume', `${range}&agentId=${acme.userId}`)).totals).toEqual({
      created: 0,
      closed: 0,
      reopened: 0,
      backlog: 1,
    });
  });

  it('loses no count when changes run at once, in two server processes on PostgreSQL', async () => {
    const load = await makeTeam(harness, acme, { name: 'Load', identifier: 'LOAD' });
    const processes = await serverProcesses(harness);
    try {
      harness.clock.set('2026-03-02T10:00:00Z');
      const appOf = (index: number) => processes.apps[index % processes.apps.length] ?? harness.app;
      const inject = async (index: number, method: 'POST' | 'PATCH', url: string, payload: object) => {
        const response = await appOf(index).inject({ method, url, headers: acme.headers, payload });
        expect(response.statusCode, response.body).toBeLessThan(300);
        return response.json().data;
      };
      const tickets = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          inject(index, 'POST', '/v1/tickets', {
            title: 'Load',
            requestorEmail: 'pat@customer.test',
            teamId: load.teamId,
            performRouting: false,
          }),
        ),
      );
      // Half closed one by one, half by one bulk change (its first ticket takes the event log's lock), with replies.
      await Promise.all([
        inject(0, 'POST', '/v1/tickets/bulk', {
          ticketIds: tickets.slice(4).map((ticket) => ticket.id),
          change: { statusName: 'Closed' },
        }),
        ...tickets.flatMap((ticket, index) => [
          ...(index < 4 ? [inject(index, 'PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed' })] : []),
          inject(index + 1, 'POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Done' }),
        ]),
      ]);
    } finally {
      await processes.close();
    }
    const range = `from=2026-03-02&to=2026-03-02&teamId=${load.teamId}`;
    expect((await report('volume', range)).totals).toEqual({ created: 8, closed: 8, reopened: 0, backlog: 0 });
    expect((await report('agents', range)).totals.agents).toEqual([
      { agentId: null, ticketsHandled: 8, publicReplies: 0, firstReplyMedian: null, slaAttainment: null, goodShare: null },
      { agentId: acme.userId, ticketsHandled: 0, publicReplies: 8, firstReplyMedian: 0, slaAttainment: null, goodShare: null },
    ]);
  });

  it("counts each reply once and each ticket's first reply once when replies race, batched and in two processes", async () => {
    const race = await makeTeam(harness, acme, { name: 'Race', identifier: 'RACE' });
    const processes = await serverProcesses(harness);
    try {
      harness.clock.set('2026-04-06T10:00:00Z');
      const tickets = [];
      for (const title of ['One', 'Two', 'Three']) {
        tickets.push(await send('POST', '/v1/tickets', { title, requestorEmail: 'pat@customer.test', teamId: race.teamId }));
      }
      harness.clock.set('2026-04-06T10:07:00Z');
      // Six requests a ticket at once, alternating processes: five replies, and the first sent again (a replay).
      const replies = tickets.flatMap((ticket, t) =>
        Array.from({ length: 6 }, (_, r) => {
          const app = processes.apps[r % Math.max(processes.apps.length, 1)] ?? harness.app;
          const payload = { content: `Reply ${r % 5}`, deDuplicationKey: `race-${t}-${r % 5}` };
          return app.inject({ method: 'POST', url: `/v1/tickets/${ticket.id}/comment`, headers: acme.headers, payload });
        }),
      );
      for (const response of await Promise.all(replies)) {
        expect(response.statusCode, response.body).toBeLessThan(300);
      }
    } finally {
      await processes.close();
    }
    const range = `from=2026-04-06&to=2026-04-06&teamId=${race.teamId}`;
    expect((await report('agents', range)).totals.agents).toEqual([
      { agentId: acme.userId, ticketsHandled: 0, publicReplies: 15, firstReplyMedian: 7, slaAttainment: null, goodShare: null },
    ]);
    expect((await report('first-reply-time', range)).totals).toEqual({
      count: 3,
      calendarMedian: 7,
      calendarP90: 7,
      // A team without hours (UTC, never open) counts calendar time.
      businessMedian: 7,
      businessP90: 7,
    });
  });
});
