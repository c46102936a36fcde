import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { encodeCursor } from '../../lib/cursors.js';
import { recordEvent } from './event.recorder.js';
import { createEventRetentionWorker } from './event-retention.worker.js';

interface Event {
  id: string;
  type: string;
  organizationId: string;
  occurredAt: string;
  actor: { type: string; id: string | null; name: string | null };
  data: Record<string, unknown>;
  changes: { field: string; oldValue: unknown; newValue: unknown }[] | null;
}

describe.each(DIALECTS)('event log on %s', (dialect) => {
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

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, payload });
  async function ok(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = acme.headers) {
    const response = await call(method, url, payload, headers);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  }
  const create = (extra: object = {}) =>
    ok('POST', '/v1/tickets', { title: 'Printer on fire', requestorEmail: 'pat@customer.test', teamId: desk.teamId, ...extra });
  /** Events written after `since` (an event id), oldest first, read page by page. */
  async function eventsSince(since: string | null, query = '', headers = acme.headers): Promise<Event[]> {
    const events: Event[] = [];
    let cursor: string | null = since ? encodeCursor([Number(since)]) : null;
    do {
      const page = await call(
        'GET',
        `/v1/events?order=asc&limit=3${query}${cursor ? `&cursor=${cursor}` : ''}`,
        undefined,
        headers,
      );
      expect(page.statusCode, page.body).toBe(200);
      events.push(...page.json().data);
      cursor = page.json().nextCursor;
    } while (cursor);
    return events;
  }
  async function lastId(headers = acme.headers): Promise<string | null> {
    const response = await call('GET', '/v1/events?limit=1', undefined, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data[0]?.id ?? null;
  }
  const me = () => ({ type: 'user', id: acme.userId, name: adminName });

  it('writes ticket.created with the ticket as the API answered it, and ticket.assigned when it starts assigned', async () => {
    // The requestor's contact is made (contact.created) by the first ticket only.
    await create();
    const since = await lastId();
    const ticket = await create();
    const assigned = await create({ assignedAgentId: acme.userId });
    const events = await eventsSince(since);
    expect(events.map((event) => event.type)).toEqual(['ticket.created', 'ticket.created', 'ticket.assigned']);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^[0-9]{16}$/),
      type: 'ticket.created',
      organizationId: acme.organizationId,
      occurredAt: TEST_NOW,
      actor: me(),
      data: ticket,
      changes: null,
    });
    expect(events[1]?.data).toEqual(assigned);
    expect(events[2]?.data).toEqual(assigned);
    expect(events[2]?.changes).toEqual([{ field: 'assignee', oldValue: null, newValue: { id: acme.userId, name: adminName } }]);
    // Ids increase by one in the organization, in the order the changes committed.
    const ids = events.map((event) => Number(event.id));
    expect(ids).toEqual([ids[0], (ids[0] ?? 0) + 1, (ids[0] ?? 0) + 2]);
  });

  it('writes ticket.updated with the changed fields, plus ticket.status_changed and ticket.assigned', async () => {
    const ticket = await create();
    const since = await lastId();
    harness.clock.set('2026-01-15T10:00:00.000Z');
    const renamed = await ok('PATCH', `/v1/tickets/${ticket.id}`, { title: 'Printer still on fire' });
    const moved = await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed', assignedAgentId: acme.userId });
    const events = await eventsSince(since);
    expect(events.map((event) => event.type)).toEqual([
      'ticket.updated',
      'ticket.updated',
      'ticket.status_changed',
      'ticket.assigned',
    ]);
    expect(events[0]).toMatchObject({ occurredAt: '2026-01-15T10:00:00.000Z', actor: me(), data: renamed });
    expect(events[0]?.changes).toEqual([{ field: 'title', oldValue: 'Printer on fire', newValue: 'Printer still on fire' }]);
    expect(events[1]?.data).toEqual(moved);
    expect(events[1]?.changes?.map((change) => change.field).sort()).toEqual(['assignee', 'status']);
    expect(events[2]?.changes).toEqual([
      { field: 'status', oldValue: { id: ticket.statusId, name: 'Open' }, newValue: { id: moved.statusId, name: 'Closed' } },
    ]);
    expect(events[3]).toMatchObject({ data: moved, changes: [{ field: 'assignee', oldValue: null }] });
  });

  it('writes ticket.updated for tags added to a ticket, and for each ticket a deleted team tag leaves', async () => {
    const made = await call('POST', `/v1/teams/${desk.teamId}/tags`, { name: 'Urgent' });
    expect(made.statusCode, made.body).toBeLessThan(300);
    const tagId = made.json().data.items.find((item: { name: string }) => item.name === 'Urgent').id;
    const ticket = await create();
    const since = await lastId();
    await ok('POST', `/v1/tickets/${ticket.id}/tags`, { tagIds: [tagId] });
    const tagged = await ok('GET', `/v1/tickets/${ticket.id}`);
    expect(tagged.tags).toEqual([expect.objectContaining({ id: tagId, name: 'Urgent' })]);
    expect((await call('DELETE', `/v1/teams/${desk.teamId}/tags/${tagId}`)).statusCode).toBe(200);
    const after = await ok('GET', `/v1/tickets/${ticket.id}`);
    const events = await eventsSince(since);
    expect(events.map((event) => [event.type, event.changes?.map((change) => change.field)])).toEqual([
      ['ticket.updated', ['tags']],
      ['ticket.updated', ['tags']],
    ]);
    expect(events[0]?.data).toEqual(tagged);
    expect(events[1]?.data).toEqual(after);
    expect(after.tags).toEqual([]);
  });

  it("writes a macro's reply and its changes: comment.created, then the ticket's events", async () => {
    const ticket = await create();
    const closed = (await ok('GET', `/v1/tickets/statuses?teamId=${desk.teamId}`)).find(
      (status: { name: string }) => status.name === 'Closed',
    );
    const macro = await ok('POST', '/v1/macros', {
      name: 'Close',
      content: 'Closing this, reopen any time.',
      actions: { statusId: closed.id },
    });
    const since = await lastId();
    const response = await call('POST', `/v1/tickets/${ticket.id}/macros/${macro.id}/apply`, {});
    expect(response.statusCode, response.body).toBeLessThan(300);
    const after = await ok('GET', `/v1/tickets/${ticket.id}`);
    const events = await eventsSince(since);
    expect(events.map((event) => event.type)).toEqual(['comment.created', 'ticket.updated', 'ticket.status_changed']);
    expect(events[0]?.data.content).toContain('Closing this');
    expect(events[1]?.data).toEqual(after);
  });

  it('writes nothing for a change that changes nothing or fails', async () => {
    const ticket = await create();
    const since = await lastId();
    await ok('PATCH', `/v1/tickets/${ticket.id}`, { title: 'Printer on fire' });
    expect((await call('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Nope' })).statusCode).toBe(400);
    expect((await call('PATCH', `/v1/tickets/${ticket.id}`, { assignedAgentId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })).statusCode).toBe(
      400,
    );
    expect((await call('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'x', attachmentIds: ['nope'] })).statusCode).toBe(
      400,
    );
    expect((await call('POST', '/v1/tickets', { title: 'x', requestorEmail: 'a@b.test', teamId: 'nope' })).statusCode).toBe(400);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('writes ticket.deleted with the deleted ticket', async () => {
    const ticket = await create();
    const since = await lastId();
    const deleted = await ok('DELETE', `/v1/tickets/${ticket.id}`);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'ticket.deleted', actor: me(), data: deleted });
    expect(events[0]?.data.deletedAt).toBe(TEST_NOW);
    expect((await call('DELETE', `/v1/tickets/${ticket.id}`)).statusCode).toBe(404);
    expect(await eventsSince(events[0]?.id ?? null)).toEqual([]);
  });

  it('writes comment.created and comment.updated with the comment, marking internal ones', async () => {
    const ticket = await create();
    const since = await lastId();
    const plain = await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Have you tried turning it off?' });
    const internal = await ok('POST', `/v1/tickets/${ticket.id}/comment`, {
      content: 'Customer sounds upset',
      commentVisibility: 'private',
      metadata: { source: 'note' },
    });
    const reply = await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Yes', parentCommentId: plain.id });
    harness.clock.set('2026-01-15T11:00:00.000Z');
    const edited = await ok('PATCH', `/v1/tickets/${ticket.id}/comments/${plain.id}`, {
      content: 'Have you tried unplugging it?',
    });
    const events = await eventsSince(since);
    const withoutDelivery = ({ emailDelivery: _, slackDelivery: __, ...comment }: Record<string, unknown>) => comment;
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['comment.created', withoutDelivery(plain)],
      ['comment.created', withoutDelivery(internal)],
      ['comment.created', withoutDelivery(reply)],
      ['comment.updated', withoutDelivery(edited)],
    ]);
    expect(events.every((event) => event.actor.id === acme.userId && event.actor.name === adminName)).toBe(true);
    expect(events[3]?.occurredAt).toBe('2026-01-15T11:00:00.000Z');
    const visibility = await harness.db
      .selectFrom('events')
      .select(['ticket_id', 'team_id', 'is_internal', 'ticket_is_private'])
      .where('organization_id', '=', acme.organizationId)
      .where('seq', '>', Number(since))
      .orderBy('seq')
      .execute();
    expect(
      visibility.map((row) => [row.ticket_id, row.team_id, Boolean(row.is_internal), Boolean(row.ticket_is_private)]),
    ).toEqual([
      [ticket.id, desk.teamId, false, false],
      [ticket.id, desk.teamId, true, false],
      [ticket.id, desk.teamId, false, false],
      [ticket.id, desk.teamId, false, false],
    ]);
  });

  it("records a private ticket's events with its visibility, for readers that filter", async () => {
    const since = await lastId();
    const ticket = await create({ isPrivate: true });
    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Secret' });
    const rows = await harness.db
      .selectFrom('events')
      .select(['type', 'ticket_is_private'])
      .where('organization_id', '=', acme.organizationId)
      .where('seq', '>', Number(since))
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => [row.type, Boolean(row.ticket_is_private)])).toEqual([
      ['ticket.created', true],
      ['comment.created', true],
    ]);
    // Admins see every event.
    expect((await eventsSince(since)).map((event) => event.type)).toEqual(['ticket.created', 'comment.created']);
  });

  it("writes a customer's comment as the contact's, after the contact it made", async () => {
    const ticket = await create();
    const since = await lastId();
    const comment = await ok('POST', `/v1/tickets/${ticket.id}/comment`, {
      content: 'Still broken',
      customerEmail: 'robin@customer.test',
    });
    const events = await eventsSince(since);
    expect(events.map((event) => event.type)).toEqual(['contact.created', 'comment.created']);
    expect(events[0]?.data).toMatchObject({ id: comment.customerContactId, email: 'robin@customer.test' });
    expect(events[1]?.actor).toEqual({ type: 'customer_contact', id: comment.customerContactId, name: comment.author });
  });

  it('answers a replayed comment (same deDuplicationKey) without a second event', async () => {
    const ticket = await create();
    const since = await lastId();
    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Once', deDuplicationKey: 'k1' });
    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Once', deDuplicationKey: 'k1' });
    expect((await eventsSince(since)).map((event) => event.type)).toEqual(['comment.created']);
  });

  it('is for organization admins only, each organization its own log', async () => {
    const denied = await call('GET', '/v1/events', undefined, mia.headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: expect.any(String) });
    expect((await harness.app.inject({ method: 'GET', url: '/v1/events' })).statusCode).toBe(401);
    expect(await eventsSince(null, '', globex.headers)).toEqual([]);
    expect((await eventsSince(null)).every((event) => event.organizationId === acme.organizationId)).toBe(true);
  });

  it('filters by type and by time, newest or oldest first, paged by cursor', async () => {
    const org = await makeOrganization(harness, { name: 'Filters' });
    const team = await makeTeam(harness, org, { name: 'Ops', identifier: 'OPS' });
    const stamps = ['2026-02-01T09:00:00.000Z', '2026-02-02T09:00:00.000Z', '2026-02-03T09:00:00.000Z'];
    const tickets = [];
    for (const at of stamps) {
      harness.clock.set(at);
      const ticket = await ok('POST', '/v1/tickets', { title: at, requestorEmail: 'a@b.test', teamId: team.teamId }, org.headers);
      await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: at }, org.headers);
      tickets.push(ticket);
    }
    const all = await eventsSince(null, '', org.headers);
    expect(all.map((event) => event.type)).toEqual([
      'contact.created',
      'ticket.created',
      'comment.created',
      'ticket.created',
      'comment.created',
      'ticket.created',
      'comment.created',
    ]);
    const newest = await call('GET', '/v1/events?limit=4', undefined, org.headers);
    expect(newest.json().data.map((event: Event) => event.id)).toEqual(
      all
        .slice(3)
        .reverse()
        .map((event) => event.id),
    );
    const older = await call('GET', `/v1/events?limit=4&cursor=${newest.json().nextCursor}`, undefined, org.headers);
    expect(older.json().data.map((event: Event) => event.id)).toEqual(
      all
        .slice(0, 3)
        .reverse()
        .map((event) => event.id),
    );
    expect(older.json().nextCursor).toBeNull();

    const created = await eventsSince(null, '&type=ticket.created', org.headers);
    expect(created.map((event) => event.data.id)).toEqual(tickets.map((ticket) => ticket.id));
    const both = await eventsSince(null, '&type=ticket.created&type=comment.created&type=ticket.created', org.headers);
    expect(both).toHaveLength(6);
    const window = await eventsSince(
      null,
      '&occurredAfter=2026-02-01T09:00:00.000Z&occurredBefore=2026-02-03T09:00:00Z',
      org.headers,
    );
    expect(window.map((event) => event.occurredAt)).toEqual([stamps[1], stamps[1]]);
    const offset = await eventsSince(null, '&occurredAfter=2026-02-02T10:00:00%2B01:00', org.headers);
    expect(offset.map((event) => event.occurredAt)).toEqual([stamps[2], stamps[2]]);
  });

  it('answers bad input with a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['type=ticket.exploded', 'ticket.exploded'],
      ['type=ticket.created&type=nope', 'nope'],
      ['occurredAfter=yesterday', 'occurredAfter'],
      ['occurredBefore=2026-13-01T00:00:00Z', 'occurredBefore'],
      ['order=sideways', 'order'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['cursor=garbage', 'cursor'],
      [`cursor=${encodeCursor(['text'])}`, 'cursor'],
      ['colour=blue', 'colour'],
    ];
    for (const [query, named] of cases) {
      const response = await call('GET', `/v1/events?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(response.json().message, query).toContain(named);
    }
  });

  it('prunes events older than EVENT_RETENTION_DAYS in bounded batches', async () => {
    const org = await makeOrganization(harness, { name: 'Retention' });
    const team = await makeTeam(harness, org, { name: 'Old', identifier: 'OLD' });
    harness.clock.set('2026-01-01T00:00:00.000Z');
    for (let i = 0; i < 5; i++) {
      await ok('POST', '/v1/tickets', { title: `old ${i}`, requestorEmail: 'a@b.test', teamId: team.teamId }, org.headers);
    }
    harness.clock.set('2026-01-20T00:00:00.000Z');
    await ok('POST', '/v1/tickets', { title: 'recent', requestorEmail: 'a@b.test', teamId: team.teamId }, org.headers);
    // 31 days after the old ones, 12 after the recent one.
    harness.clock.set('2026-02-01T00:00:01.000Z');
    const log = pino({ level: 'silent' });
    const worker = createEventRetentionWorker(
      { db: harness.db, clock: harness.clock, config: harness.config, log },
      { batchSize: 2 },
    );
    expect(harness.config.EVENT_RETENTION_DAYS).toBe(30);
    const remaining = async () =>
      (await eventsSince(null, '', org.headers)).map((event) => (event.data as { title: string }).title);
    // Six old events (the requestor's contact, five tickets) and a recent one.
    expect(await worker.runOnce()).toBe(2);
    expect(await remaining()).toHaveLength(5);
    expect(await worker.runOnce()).toBe(2);
    expect(await worker.runOnce()).toBeGreaterThanOrEqual(1);
    while ((await worker.runOnce()) > 0) {}
    expect(await remaining()).toEqual(['recent']);
    // Numbers are not reused after pruning: the next event follows the last ever written.
    const before = Number(await lastId(org.headers));
    await ok('POST', '/v1/tickets', { title: 'next', requestorEmail: 'a@b.test', teamId: team.teamId }, org.headers);
    expect(Number(await lastId(org.headers))).toBe(before + 1);
  });

  it('takes EVENT_RETENTION_DAYS from the environment', async () => {
    const { testConfig } = await import('../../../test/harness.js');
    expect(testConfig({ EVENT_RETENTION_DAYS: '7' }).EVENT_RETENTION_DAYS).toBe(7);
    expect(() => testConfig({ EVENT_RETENTION_DAYS: '0' })).toThrow(/EVENT_RETENTION_DAYS/);
  });

  it.runIf(dialect === 'postgres')(
    'makes a later writer wait for an earlier one, so a reader paging by id never skips a late commit',
    async () => {
      const org = await makeOrganization(harness, { name: 'Late' });
      const clock = harness.clock;
      const visible = async () =>
        (
          await harness.db
            .selectFrom('events')
            .select('seq')
            .where('organization_id', '=', org.organizationId)
            .orderBy('seq')
            .execute()
        ).map((row) => Number(row.seq));
      const event = { type: 'contact.created' as const, actor: { type: 'system' as const, id: null, name: 'test' }, data: {} };
      let releaseFirst: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      let firstWrote: () => void = () => {};
      const wrote = new Promise<void>((resolve) => {
        firstWrote = resolve;
      });
      const first = harness.db.transaction().execute(async (trx) => {
        await recordEvent(trx, { clock }, org.organizationId, event);
        firstWrote();
        await held;
      });
      await wrote;
      let secondDone = false;
      const second = harness.db
        .transaction()
        .execute((trx) => recordEvent(trx, { clock }, org.organizationId, event))
        .then(() => {
          secondDone = true;
        });
      await new Promise((resolve) => setTimeout(resolve, 150));
      // The second writer waits for the first's number to commit: nothing is visible, nothing skipped.
      expect(secondDone).toBe(false);
      expect(await visible()).toEqual([]);
      releaseFirst();
      await Promise.all([first, second]);
      expect(await visible()).toEqual([1, 2]);
    },
  );

  it('numbers concurrent writers of one organization without gaps, in commit order', async () => {
    const org = await makeOrganization(harness, { name: 'Busy' });
    const team = await makeTeam(harness, org, { name: 'Busy', identifier: 'BUSY' });
    const ticket = await ok(
      'POST',
      '/v1/tickets',
      { title: 'hot', requestorEmail: 'a@b.test', teamId: team.teamId },
      org.headers,
    );
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0
          ? ok('PATCH', `/v1/tickets/${ticket.id}`, { title: `hot ${i}` }, org.headers)
          : ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: `c ${i}` }, org.headers),
      ),
    );
    const events = await eventsSince(null, '', org.headers);
    // The requestor's contact, the ticket, twelve changes.
    expect(events).toHaveLength(14);
    const ids = events.map((event) => Number(event.id));
    expect(ids).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    // Title changes chain: each event's old title is the title the event before it left.
    const titles = events.filter((event) => event.type === 'ticket.updated').map((event) => event.changes?.[0]);
    for (let i = 1; i < titles.length; i++) {
      expect(titles[i]?.oldValue).toBe(titles[i - 1]?.newValue);
    }
  });

  it("numbers a burst of comments as they were written: each written comment's event once, a replayed key's none", async () => {
    const org = await makeOrganization(harness, { name: 'Burst' });
    const team = await makeTeam(harness, org, { name: 'Burst', identifier: 'BURST' });
    const ticket = await ok(
      'POST',
      '/v1/tickets',
      { title: 'hot', requestorEmail: 'a@b.test', teamId: team.teamId },
      org.headers,
    );
    const since = await lastId(org.headers);
    // Arriving together, they are written together on PostgreSQL (one statement for those that
    // queue behind the first); two carry one key, so one of them is a replay.
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call(
          'POST',
          `/v1/tickets/${ticket.id}/comment`,
          i === 5 || i === 17 ? { content: 'twice', deDuplicationKey: 'same' } : { content: `c ${i}` },
          org.headers,
        ),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, ...Array(23).fill(201)]);
    const written = responses.filter((response) => response.statusCode === 201).map((response) => response.json().data);
    const events = await eventsSince(since, '', org.headers);
    expect(events.map((event) => event.type)).toEqual(Array(23).fill('comment.created'));
    expect(events.map((event) => Number(event.id))).toEqual(Array.from({ length: 23 }, (_, i) => Number(since) + i + 1));
    // Each event is its own comment's, as the API answered it.
    expect(events.map((event) => event.data).sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual(
      written.sort((a, b) => a.id.localeCompare(b.id)).map(({ emailDelivery: _, slackDelivery: __, ...comment }) => comment),
    );
  });
});
