import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { encodeCursor } from '../../lib/cursors.js';
import { createRoutingWorker } from '../routing/routing.worker.js';

interface Entry {
  id: string;
  ticketId: string;
  field: string;
  oldValue: unknown;
  newValue: unknown;
  actor: { type: string; id: string | null; name: string | null };
  createdAt: string;
}

describe.each(DIALECTS)('ticket activity timeline on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let adminName: string;
  let mia: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia', email: 'mia@acme.test' });
    adminName = (await harness.db.selectFrom('users').select('name').where('id', '=', acme.userId).executeTakeFirstOrThrow())
      .name;
  });
  afterAll(() => harness.close());
  afterEach(() => harness.clock.set(TEST_NOW));

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, payload });
  async function ok(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = acme.headers) {
    const response = await call(method, url, payload, headers);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  }
  const create = (teamId: string, extra: object = {}) =>
    ok('POST', '/v1/tickets', { title: 'Printer on fire', requestorEmail: 'pat@customer.test', teamId, ...extra });
  /** The whole timeline, newest first, read page by page. */
  async function timeline(ticketId: string, limit = 100): Promise<Entry[]> {
    const entries: Entry[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const response = await call('GET', `/v1/tickets/${ticketId}/activities?limit=${limit}${query}`);
      expect(response.statusCode, response.body).toBe(200);
      entries.push(...response.json().data);
      cursor = response.json().nextCursor;
    } while (cursor);
    return entries;
  }
  const byField = (entries: Entry[]) => Object.fromEntries(entries.map((entry) => [entry.field, entry]));
  const me = () => ({ type: 'user', id: acme.userId, name: adminName });

  it('records the creation with the ticket as asked for, by its creator', async () => {
    const ticket = await create(desk.teamId, { priorityName: 'High' });
    const entries = await timeline(ticket.id);
    expect(entries).toEqual([
      {
        id: expect.stringMatching(/^[0-9A-Z]{26}$/),
        ticketId: ticket.id,
        field: 'created',
        oldValue: null,
        newValue: {
          ticketIdentifier: ticket.ticketIdentifier,
          title: 'Printer on fire',
          team: { id: desk.teamId, name: 'Desk', identifier: 'DESK', ticketIdentifier: ticket.ticketIdentifier },
          status: { id: ticket.statusId, name: 'Open' },
          priority: { id: ticket.priorityId, name: 'High' },
          type: null,
          assignee: null,
          tags: [],
          isPrivate: false,
          dueDate: null,
        },
        actor: me(),
        createdAt: TEST_NOW,
      },
    ]);
  });

  it('records each field a PATCH changes, old and new, with names beside ids; a PATCH changing nothing records nothing', async () => {
    const field = (await call('POST', '/v1/custom-field', { name: 'Plan', source: 'ticket', fieldType: 'single_line' })).json()
      .data;
    const tags = (await call('POST', `/v1/teams/${desk.teamId}/tags`, { name: 'vip' })).json().data.items;
    const ticket = await create(desk.teamId);
    harness.clock.set('2026-01-15T10:00:00.000Z');
    const updated = await ok('PATCH', `/v1/tickets/${ticket.id}`, {
      title: 'Printer on fire again',
      description: 'Smoke',
      statusName: 'In progress',
      priorityName: 'Urgent',
      assignedAgentId: mia.userId,
      isPrivate: true,
      dueDate: '2026-02-01T00:00:00.000Z',
      tagIds: ['vip'],
      customFieldValues: [{ fieldId: field.uid, value: 'Gold' }],
    });
    const entries = await timeline(ticket.id);
    expect(entries.map((entry) => entry.field)).toEqual([
      'customField',
      'tags',
      'dueDate',
      'isPrivate',
      'assignee',
      'priority',
      'status',
      'description',
      'title',
      'created',
    ]);
    const changed = byField(entries);
    expect(changed.title).toMatchObject({ oldValue: 'Printer on fire', newValue: 'Printer on fire again', actor: me() });
    expect(changed.description).toMatchObject({ oldValue: null, newValue: 'Smoke' });
    expect(changed.status).toMatchObject({
      oldValue: { id: ticket.statusId, name: 'Open' },
      newValue: { id: updated.statusId, name: 'In progress' },
      createdAt: '2026-01-15T10:00:00.000Z',
    });
    expect(changed.priority).toMatchObject({
      oldValue: { id: ticket.priorityId, name: 'Medium' },
      newValue: { id: updated.priorityId, name: 'Urgent' },
    });
    expect(changed.assignee).toMatchObject({ oldValue: null, newValue: { id: mia.userId, name: 'Mia', email: 'mia@acme.test' } });
    expect(changed.isPrivate).toMatchObject({ oldValue: false, newValue: true });
    expect(changed.dueDate).toMatchObject({ oldValue: null, newValue: '2026-02-01T00:00:00.000Z' });
    expect(changed.tags).toMatchObject({ oldValue: [], newValue: [{ id: tags[0].id, name: 'vip' }] });
    expect(changed.customField).toMatchObject({
      oldValue: { fieldId: field.uid, name: 'Plan', value: null },
      newValue: { fieldId: field.uid, name: 'Plan', value: 'Gold' },
    });

    await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'In progress', title: 'Printer on fire again' });
    expect(await timeline(ticket.id)).toHaveLength(10);
    await ok('PATCH', `/v1/tickets/${ticket.id}`, { assignedAgentId: null, statusName: 'Closed' });
    const [unassigned, closed] = await timeline(ticket.id);
    expect(closed).toMatchObject({ field: 'status', newValue: { name: 'Closed' } });
    expect(unassigned).toMatchObject({ field: 'assignee', oldValue: { id: mia.userId }, newValue: null });
  });

  it('records tags added and removed, and a rejected change records nothing', async () => {
    const team = await makeTeam(harness, acme, { identifier: 'TAGS' });
    for (const name of ['a', 'b']) {
      await call('POST', `/v1/teams/${team.teamId}/tags`, { name });
    }
    const ticket = await create(team.teamId, { tagIds: ['a'] });
    await ok('POST', `/v1/tickets/${ticket.id}/tags`, { tagIds: ['b'] });
    await ok('POST', `/v1/tickets/${ticket.id}/tags`, { tagIds: ['a'] });
    await ok('DELETE', `/v1/tickets/${ticket.id}/tags?tagIds=a`);
    expect((await call('POST', `/v1/tickets/${ticket.id}/tags`, { tagIds: ['nope'] })).statusCode).toBe(400);
    expect((await call('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Nope' })).statusCode).toBe(400);
    const names = (value: unknown) => (value as { name: string }[]).map((tag) => tag.name);
    const entries = await timeline(ticket.id);
    expect(entries.map((entry) => entry.field)).toEqual(['tags', 'tags', 'created']);
    expect(entries.slice(0, 2).map((entry) => [names(entry.oldValue), names(entry.newValue)])).toEqual([
      [['a', 'b'], ['b']],
      [['a'], ['a', 'b']],
    ]);
    expect(entries.at(-1)?.newValue).toMatchObject({ tags: [{ name: 'a' }] });
  });

  it('records the deletion (the timeline stays, behind the 404 of the deleted ticket)', async () => {
    const ticket = await create(desk.teamId);
    await ok('DELETE', `/v1/tickets/${ticket.id}`);
    expect((await call('GET', `/v1/tickets/${ticket.id}/activities`)).statusCode).toBe(404);
    const rows = await harness.db
      .selectFrom('ticket_activities')
      .select(['field', 'seq', 'actor_type', 'actor_id', 'new_value'])
      .where('ticket_id', '=', ticket.id)
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => [row.field, Number(row.seq), row.actor_type, row.actor_id])).toEqual([
      ['created', 1, 'user', acme.userId],
      ['deleted', 2, 'user', acme.userId],
    ]);
    expect(JSON.parse(String(rows[1]?.new_value))).toBe(TEST_NOW);
  });

  it("records routing's changes as routing's: assignment on creation, the waiting-tickets worker, a reroute to another team", async () => {
    const agent = await makeUser(harness, acme.organizationId, { name: 'Ray', email: 'ray@acme.test' });
    await ok('PATCH', `/v1/users/${agent.userId}`, { status: 'online' });
    const routed = await makeTeam(harness, acme, { name: 'Routed', identifier: 'RTD' });
    await harness.db.deleteFrom('team_members').where('team_id', '=', routed.teamId).execute();
    await ok('POST', `/v1/teams/${routed.teamId}/members`, { userId: agent.userId });
    await ok('PATCH', `/v1/teams/${routed.teamId}/configurations`, { userRoutingStrategy: 'round_robin' });

    const assigned = await create(routed.teamId);
    expect(assigned.assignedAgentId).toBe(agent.userId);
    const [decision] = (await ok('GET', `/v1/tickets/${assigned.id}/routing-history`)) as { id: string }[];
    const [assignment, creation] = await timeline(assigned.id);
    expect(creation).toMatchObject({ field: 'created', actor: me(), newValue: { assignee: null } });
    expect(assignment).toMatchObject({
      field: 'assignee',
      oldValue: null,
      newValue: { id: agent.userId, name: 'Ray' },
      actor: { type: 'routing', id: decision?.id, name: 'Routing' },
    });

    // Capacity reached: the next ticket waits, and the worker assigns it once there is room.
    await ok('PATCH', `/v1/teams/${routed.teamId}/configurations`, { routingRespectsUserCapacity: true });
    await ok('PATCH', `/v1/users/${agent.userId}`, { capacity: 1 });
    const waiting = await create(routed.teamId);
    expect(waiting.assignedAgentId).toBeNull();
    await harness.db.updateTable('users').set({ capacity: 5 }).where('id', '=', agent.userId).execute();
    const worker = createRoutingWorker({
      db: harness.db,
      clock: harness.clock,
      ids: harness.ids,
      config: harness.config,
      secretKey: harness.secretKey,
      log: pino({ level: 'silent' }),
    });
    expect(await worker.runOnce()).toBeGreaterThanOrEqual(1);
    const [byWorker] = await timeline(waiting.id);
    expect(byWorker).toMatchObject({
      field: 'assignee',
      oldValue: null,
      newValue: { id: agent.userId },
      actor: { type: 'routing', id: expect.any(String) },
    });

    const elsewhere = await makeTeam(harness, acme, { name: 'Elsewhere', identifier: 'ELS' });
    await ok('POST', `/v1/teams/${routed.teamId}/routing`, { name: 'Send away', resultTeamId: elsewhere.teamId });
    await ok('POST', `/v1/tickets/${assigned.id}/route`);
    const moved = byField((await timeline(assigned.id)).slice(0, 4));
    expect(moved.team).toMatchObject({
      oldValue: { id: routed.teamId, name: 'Routed', identifier: 'RTD', ticketIdentifier: assigned.ticketIdentifier },
      newValue: { id: elsewhere.teamId, name: 'Elsewhere', identifier: 'ELS', ticketIdentifier: 'ELS-1' },
      actor: { type: 'routing', name: 'Send away' },
    });
    expect(moved.assignee).toMatchObject({ oldValue: { id: agent.userId }, newValue: null });
    expect(moved.status).toMatchObject({ oldValue: { name: 'Open' }, newValue: { name: 'Open' } });
  });

  it('pages newest first by cursor; refuses bad cursors and limits; 404 for another organization; no route edits entries', async () => {
    const ticket = await create(desk.teamId);
    for (const title of ['one', 'two', 'three', 'four']) {
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { title });
    }
    const all = await timeline(ticket.id);
    expect(all.map((entry) => entry.newValue)).toEqual(['four', 'three', 'two', 'one', expect.objectContaining({})]);
    expect(await timeline(ticket.id, 2)).toEqual(all);
    const first = await call('GET', `/v1/tickets/${ticket.id}/activities?limit=2`);
    expect(first.json()).toMatchObject({ status: true, nextCursor: expect.any(String) });
    for (const query of [
      'cursor=nope!',
      `cursor=${encodeCursor(['x'])}`,
      `cursor=${encodeCursor([1, 2])}`,
      'limit=0',
      'limit=101',
      'x=1',
    ]) {
      const response = await call('GET', `/v1/tickets/${ticket.id}/activities?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    const foreign = await call('GET', `/v1/tickets/${ticket.id}/activities`, undefined, globex.headers);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ statusCode: 404, message: 'Ticket not found!', error: 'Not Found' });
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      expect((await call(method, `/v1/tickets/${ticket.id}/activities`, {})).statusCode, method).toBe(404);
      expect((await call(method, `/v1/tickets/${ticket.id}/activities/${all[0]?.id}`, {})).statusCode, method).toBe(404);
    }
    expect(await timeline(ticket.id)).toEqual(all);
  });
});

describe.each(DIALECTS)('ticket timeline under concurrency on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let processes: Awaited<ReturnType<typeof serverProcesses>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    processes = await serverProcesses(harness);
  });
  afterAll(async () => {
    await processes?.close();
    await harness.close();
  });

  it('20 concurrent PATCHes of status and priority leave 20 status entries whose old and new values chain without gaps', async () => {
    const team = await makeTeam(harness, acme, { identifier: 'RACE' });
    const created = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: acme.headers,
      payload: { title: 'Race', requestorEmail: 'pat@customer.test', teamId: team.teamId },
    });
    const ticket = created.json().data;
    // Twenty statuses, so that every PATCH changes the status whatever order they run in.
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
    const priorities = ['Low', 'Medium', 'High', 'Urgent'];
    const apps = processes.apps;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (apps[i % apps.length] as FastifyInstance).inject({
          method: 'PATCH',
          url: `/v1/tickets/${ticket.id}`,
          headers: acme.headers,
          payload: { statusName: `Step ${i}`, priorityName: priorities[i % 4] },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));

    const rows = await harness.db
      .selectFrom('ticket_activities')
      .select(['seq', 'field', 'old_value', 'new_value'])
      .where('ticket_id', '=', ticket.id)
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, i) => i + 1));
    const final = (await harness.app.inject({ url: `/v1/tickets/${ticket.id}`, headers: acme.headers })).json().data;
    const chain = (field: string, start: string, end: string) => {
      const entries = rows
        .filter((row) => row.field === field)
        .map((row) => ({
          from: (JSON.parse(String(row.old_value)) as { name: string }).name,
          to: (JSON.parse(String(row.new_value)) as { name: string }).name,
        }));
      let current = start;
      for (const entry of entries) {
        expect(entry.from).toBe(current);
        expect(entry.to).not.toBe(entry.from);
        current = entry.to;
      }
      expect(current).toBe(end);
      return entries;
    };
    const statuses = chain('status', 'Open', final.status);
    expect(statuses).toHaveLength(20);
    expect(new Set(statuses.map((entry) => entry.to))).toEqual(new Set(Array.from({ length: 20 }, (_, i) => `Step ${i}`)));
    chain('priority', 'Medium', final.priority);
    // The timeline through HTTP is the same, newest first.
    const listed = (
      await harness.app.inject({ url: `/v1/tickets/${ticket.id}/activities?limit=100`, headers: acme.headers })
    ).json().data as { field: string }[];
    expect(listed.map((entry) => entry.field)).toEqual(rows.map((row) => row.field).reverse());
  }, 60_000);
});
