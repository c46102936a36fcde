import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';

describe.each(DIALECTS)('bulk ticket updates on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let billing: TestTeam;
  let mia: Awaited<ReturnType<typeof makeUser>>;
  let processes: Awaited<ReturnType<typeof serverProcesses>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    billing = await makeTeam(harness, acme, { name: 'Billing', identifier: 'BILL' });
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia', email: 'mia@acme.test' });
    for (const [team, name] of [
      [desk, 'vip'],
      [desk, 'late'],
      [billing, 'VIP'],
    ] as const) {
      await harness.app.inject({
        method: 'POST',
        url: `/v1/teams/${team.teamId}/tags`,
        headers: acme.headers,
        payload: { name },
      });
    }
    processes = await serverProcesses(harness);
  });
  afterAll(async () => {
    await processes?.close();
    await harness.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, payload });
  const bulk = (payload: object, headers = acme.headers) => call('POST', '/v1/tickets/bulk', payload, headers);
  const make = async (teamId: string, extra: object = {}) => {
    const response = await call('POST', '/v1/tickets', { title: 'Bulk', requestorEmail: 'pat@customer.test', teamId, ...extra });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const get = async (id: string) => (await call('GET', `/v1/tickets/${id}`)).json().data;
  const entries = async (id: string) =>
    (await call('GET', `/v1/tickets/${id}/activities?limit=100`)).json().data as { field: string; newValue: unknown }[];
  const snapshot = async () => ({
    tickets: await harness.db.selectFrom('tickets').selectAll().orderBy('id').execute(),
    tags: await harness.db.selectFrom('ticket_tags').selectAll().orderBy('ticket_id').orderBy('tag_id').execute(),
    activities: Number(
      (
        await harness.db
          .selectFrom('ticket_activities')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  it('sets the status of tickets of two teams by name, answers each ticket, records each change', async () => {
    const a = await make(desk.teamId);
    const b = await make(billing.teamId);
    const already = await make(desk.teamId, { statusName: 'In progress' });
    const response = await bulk({ ticketIds: [a.id, b.id, already.id, a.id], change: { statusName: 'in progress' } });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data.changed).toBe(2);
    expect(data.results.map((result: { ref: string; changed: boolean }) => [result.ref, result.changed])).toEqual([
      [a.id, true],
      [b.id, true],
      [already.id, false],
    ]);
    for (const result of data.results) {
      expect(result.ticket.status).toBe('In progress');
    }
    expect((await entries(a.id))[0]).toMatchObject({ field: 'status', newValue: { name: 'In progress' } });
    expect((await entries(already.id)).map((entry) => entry.field)).toEqual(['created']);
  });

  it("assigns and unassigns, changes priority, adds and removes tags by name in each ticket's team, moves teams", async () => {
    const a = await make(desk.teamId, { tagIds: ['late'] });
    const b = await make(billing.teamId);
    const ids = [a.id, b.id];
    const ok = async (change: object) => {
      const response = await bulk({ ticketIds: ids, change });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.results.map((result: { ticket: Record<string, unknown> }) => result.ticket);
    };
    expect(
      (await ok({ assignedAgentEmail: 'MIA@acme.test' })).map((t: { assignedAgentId: string }) => t.assignedAgentId),
    ).toEqual([mia.userId, mia.userId]);
    expect((await ok({ assignedAgentId: null })).map((t: { assignedAgentId: string }) => t.assignedAgentId)).toEqual([
      null,
      null,
    ]);
    expect((await ok({ priorityName: 'Urgent' })).map((t: { priority: string }) => t.priority)).toEqual(['Urgent', 'Urgent']);
    const tagged = await ok({ addTagIds: ['vip'] });
    expect(tagged.map((t: { tags: { name: string }[] }) => t.tags.map((tag) => tag.name))).toEqual([['late', 'vip'], ['VIP']]);
    const untagged = await ok({ removeTagIds: ['VIP'] });
    expect(untagged.map((t: { tags: { name: string }[] }) => t.tags.map((tag) => tag.name))).toEqual([['late'], []]);
    const moved = await ok({ teamId: billing.teamId });
    expect(moved.map((t: { teamId: string }) => t.teamId)).toEqual([billing.teamId, billing.teamId]);
    expect((moved[0] as { ticketIdentifier: string }).ticketIdentifier).toMatch(/^BILL-/);
    expect((moved[1] as { ticketIdentifier: string }).ticketIdentifier).toBe(b.ticketIdentifier);
    const fields = (await entries(a.id)).map((entry) => entry.field);
    // The move matches the status and priority by name and drops `late`, which Billing does not have.
    expect(moved[0]).toMatchObject({ status: 'Open', priority: 'Urgent', tags: [] });
    expect(fields).toEqual(['tags', 'team', 'priority', 'status', 'tags', 'tags', 'priority', 'assignee', 'assignee', 'created']);
  });

  it.each([
    [
      'over 100 ids',
      () => ({ ticketIds: Array.from({ length: 101 }, (_, i) => `id${i}`), change: { priorityName: 'Low' } }),
      400,
      'ticketIds',
    ],
    ['no ids', () => ({ ticketIds: [], change: { priorityName: 'Low' } }), 400, 'ticketIds'],
    ['no change', (ids: string[]) => ({ ticketIds: ids, change: {} }), 400, 'exactly one'],
    [
      'two changes',
      (ids: string[]) => ({ ticketIds: ids, change: { priorityName: 'Low', statusName: 'Open' } }),
      400,
      'exactly one',
    ],
    ['an unknown field', (ids: string[]) => ({ ticketIds: ids, change: { colour: 'red' } }), 400, 'colour'],
    [
      "a status one ticket's team lacks",
      (ids: string[]) => ({ ticketIds: ids, change: { statusName: 'Waiting on Bob' } }),
      400,
      'ticketIds[0]',
    ],
    [
      'a tag of another team',
      (ids: string[], vip: string) => ({ ticketIds: ids, change: { addTagIds: [vip] } }),
      400,
      'ticketIds[1]',
    ],
    [
      'an unknown ticket',
      (ids: string[]) => ({ ticketIds: [...ids, '01KAAAAAAAAAAAAAAAAAAAAAAA'], change: { priorityName: 'Low' } }),
      404,
      'ticketIds[2]',
    ],
    [
      'an unknown team',
      (ids: string[]) => ({ ticketIds: ids, change: { teamId: '01KAAAAAAAAAAAAAAAAAAAAAAA' } }),
      404,
      'Team not found',
    ],
    [
      'an unknown agent',
      (ids: string[]) => ({ ticketIds: ids, change: { assignedAgentEmail: 'nobody@acme.test' } }),
      400,
      'assignedAgentEmail',
    ],
  ])('refuses %s, and changes no ticket', async (_, body, status, words) => {
    const a = await make(desk.teamId);
    const b = await make(billing.teamId);
    const deskVip = (await call('GET', `/v1/teams/${desk.teamId}/tags`))
      .json()
      .data.items.find((tag: { name: string }) => tag.name === 'vip').id;
    const before = await snapshot();
    const response = await bulk((body as (ids: string[], vip: string) => object)([a.id, b.id], deskVip));
    expect(response.statusCode, response.body).toBe(status);
    expect(Object.keys(response.json()).sort()).toEqual(['error', 'message', 'statusCode']);
    expect(response.json().message).toContain(words);
    expect(await snapshot()).toEqual(before);
  });

  it("all or nothing: a later ticket's failure undoes the earlier ones'; another organization's ticket is a 404", async () => {
    const a = await make(desk.teamId);
    const b = await make(desk.teamId);
    const closedOnly = await makeTeam(harness, acme, { identifier: 'ONLY' });
    const c = await make(closedOnly.teamId);
    await harness.db
      .deleteFrom('ticket_options')
      .where('team_id', '=', closedOnly.teamId)
      .where('name', '=', 'in_progress')
      .execute();
    const before = await snapshot();
    const failed = await bulk({ ticketIds: [a.id, b.id, c.id], change: { statusName: 'In progress' } });
    expect(failed.statusCode).toBe(400);
    expect(failed.json().message).toContain(`ticketIds[2] (${c.ticketIdentifier})`);
    expect(await snapshot()).toEqual(before);
    expect((await get(a.id)).status).toBe('Open');
    const foreign = await bulk({ ticketIds: [a.id], change: { priorityName: 'Low' } }, globex.headers);
    expect(foreign.statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('20 concurrent bulk updates over the same tickets lose no timeline entry', async () => {
    const team = await makeTeam(harness, acme, { identifier: 'RUSH' });
    const tickets = [];
    for (let i = 0; i < 5; i++) {
      tickets.push(await make(team.teamId));
    }
    const at = harness.clock.now().toISOString();
    await harness.db
      .insertInto('ticket_options')
      .values(
        Array.from({ length: 20 }, (_, i) => ({
          id: harness.ids.ulid(),
          organization_id: acme.organizationId,
          team_id: team.teamId,
          kind: 'status' as const,
          name: `step_${i}`,
          display_name: `Step ${i}`,
          description: null,
          color: null,
          is_default: false,
          is_closed: false,
          position: 10 + i,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const ids = tickets.map((ticket) => ticket.id);
    const apps = processes.apps;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (apps[i % apps.length] as FastifyInstance).inject({
          method: 'POST',
          url: '/v1/tickets/bulk',
          headers: acme.headers,
          // Each request names the tickets in another order: the locks are taken in id order all the same.
          payload: { ticketIds: i % 2 ? [...ids].reverse() : ids, change: { statusName: `Step ${i}` } },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    for (const ticket of tickets) {
      const rows = await harness.db
        .selectFrom('ticket_activities')
        .select(['seq', 'field', 'old_value', 'new_value'])
        .where('ticket_id', '=', ticket.id)
        .orderBy('seq')
        .execute();
      const statuses = rows.filter((row) => row.field === 'status');
      expect(statuses).toHaveLength(20);
      let current = 'Open';
      for (const row of statuses) {
        expect(JSON.parse(String(row.old_value)).name).toBe(current);
        current = JSON.parse(String(row.new_value)).name;
      }
      expect(current).toBe((await get(ticket.id)).status);
      expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, i) => i + 1));
    }
  }, 60_000);
});
