import { connect } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asBrowser, signInBrowser } from '../../../test/browser-session.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, TEST_NOW, type TestApp, testConfig } from '../../../test/harness.js';
import { openSse, type SseClient } from '../../../test/sse.js';
import { buildApp } from '../../app.js';
import { encodeCursor } from '../../lib/cursors.js';
import { setUserPassword } from '../auth/credential.repository.js';
import { hashPassword } from '../auth/password.js';
import { insertTeamMember } from '../teams/team.repository.js';
import { revokeApiKey } from '../users/api-key.service.js';
import { createEventRetentionWorker } from './event-retention.worker.js';

interface Event {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

type Headers = Record<string, string>;

describe.each(DIALECTS)('event stream on %s', (dialect) => {
  let harness: TestApp;
  let base: string;
  let acme: TestOrganization;
  let desk: TestTeam;
  /** A member outside Desk, and one in it. */
  let mia: Awaited<ReturnType<typeof makeUser>>;
  let tom: Awaited<ReturnType<typeof makeUser>>;
  const opened: SseClient[] = [];

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { EVENT_STREAM_HEARTBEAT_MS: '100', EVENT_WATCH_INTERVAL_MS: '20' } });
    base = await harness.app.listen({ host: '127.0.0.1', port: 0 });
    acme = await makeOrganization(harness, { name: 'Acme' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia' });
    tom = await makeUser(harness, acme.organizationId, { name: 'Tom' });
    await insertTeamMember(harness.db, {
      team_id: desk.teamId,
      user_id: tom.userId,
      organization_id: acme.organizationId,
      is_admin: false,
      invited_by_id: null,
      joined_at: TEST_NOW,
    });
    // The requestor's contact exists from here on: later tickets write no contact.created.
    await create();
  });
  afterEach(() => {
    for (const client of opened.splice(0)) {
      client.close();
    }
    harness.clock.set(TEST_NOW);
  });
  afterAll(() => harness.close());

  async function ok(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers: Headers = acme.headers) {
    const response = await harness.app.inject({ method, url, headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  }
  function create(extra: object = {}) {
    return ok('POST', '/v1/tickets', {
      title: 'Printer on fire',
      requestorEmail: 'pat@customer.test',
      teamId: desk.teamId,
      ...extra,
    });
  }
  /** The organization's events after `since`, oldest first, as `GET /v1/events` lists them. */
  async function eventsSince(since: string): Promise<Event[]> {
    const events: Event[] = [];
    let cursor: string | null = encodeCursor([Number(since)]);
    while (cursor) {
      const page: Awaited<ReturnType<typeof harness.app.inject>> = await harness.app.inject({
        url: `/v1/events?order=asc&limit=100&cursor=${cursor}`,
        headers: acme.headers,
      });
      expect(page.statusCode, page.body).toBe(200);
      events.push(...page.json().data);
      cursor = page.json().nextCursor;
    }
    return events;
  }
  async function lastId(): Promise<string> {
    const page = await harness.app.inject({ url: '/v1/events?limit=1', headers: acme.headers });
    return page.json().data[0]?.id ?? '0000000000000000';
  }
  /** A stream at `url` (default: this app's), once it has said `ready`. */
  async function stream(query = '', headers: Headers = acme.headers, at = base): Promise<SseClient> {
    const client = await openSse(`${at}/v1/events/stream${query}`, headers);
    opened.push(client);
    expect(client.status, JSON.stringify(client.body)).toBe(200);
    await client.until((c) => c.events.some((event) => event.event === 'ready'), 'ready');
    return client;
  }
  /** What a client received after `ready`, as the list shows events. */
  const received = (client: SseClient) =>
    client.logEvents().map((event) => ({ id: event.id, type: event.event, data: JSON.parse(event.data).data }));
  const readyId = (client: SseClient) => client.events.find((event) => event.event === 'ready')?.id ?? '';
  const lastReceived = (client: SseClient) => client.logEvents().at(-1)?.id;
  const until = (client: SseClient, id: string) => client.until((c) => lastReceived(c) === id, `event ${id}`);

  it('sends events live, in commit order, each exactly as GET /v1/events lists it', async () => {
    const client = await stream();
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['x-request-id']).toBeTruthy();
    const since = readyId(client);
    expect(since).toBe(await lastId());
    expect(JSON.parse(client.events[0]?.data ?? '')).toEqual({ lastEventId: since });

    const ticket = await create();
    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Have you tried turning it off?' });
    await ok('DELETE', `/v1/tickets/${ticket.id}`);
    const listed = await eventsSince(since);
    expect(listed.map((event) => event.type)).toEqual(['ticket.created', 'comment.created', 'ticket.deleted']);
    await until(client, listed[2]?.id ?? '');
    expect(client.logEvents().map((event) => [event.id, event.event, JSON.parse(event.data)])).toEqual(
      listed.map((event) => [event.id, event.type, event]),
    );
  });

  it('sends only the types asked for', async () => {
    const client = await stream('?type=comment.created&type=ticket.deleted');
    const since = readyId(client);
    const ticket = await create();
    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'One' });
    await ok('DELETE', `/v1/tickets/${ticket.id}`);
    const wanted = (await eventsSince(since)).filter((event) => event.type !== 'ticket.created');
    expect(wanted.map((event) => event.type)).toEqual(['comment.created', 'ticket.deleted']);
    await until(client, wanted[1]?.id ?? '');
    expect(client.logEvents().map((event) => event.id)).toEqual(wanted.map((event) => event.id));
  });

  it('sends each user what they may see: a private ticket to its team and admins, a private note to its author and admins', async () => {
    const forAdmin = await stream();
    const forMia = await stream('', mia.headers);
    const forTom = await stream('', tom.headers);
    const since = readyId(forAdmin);
    const secret = await create({ isPrivate: true });
    await ok('POST', `/v1/tickets/${secret.id}/comment`, { content: 'Between us' });
    const privateTicket = await eventsSince(since);
    const made = await harness.app.inject({
      method: 'POST',
      url: '/v1/accounts',
      headers: acme.headers,
      payload: { name: 'Initech', primaryDomain: 'initech.example' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const account = made.json();
    const afterAccount = await lastId();
    await ok(
      'POST',
      '/v1/accounts/notes',
      { accountId: account.id, content: 'Renewal at risk', visibility: 'private' },
      tom.headers,
    );
    const privateNote = await eventsSince(afterAccount);
    await create();
    const all = await eventsSince(since);
    const last = all.at(-1)?.id ?? '';
    await Promise.all([until(forAdmin, last), until(forMia, last), until(forTom, last)]);

    expect(privateTicket.map((event) => event.type)).toEqual(['ticket.created', 'comment.created']);
    expect(privateNote.map((event) => event.type)).toEqual(['note.created']);
    const hidden = new Set([...privateTicket, ...privateNote].map((event) => event.id));
    expect(received(forAdmin)).toEqual(all.map(({ id, type, data }) => ({ id, type, data })));
    expect(received(forTom)).toEqual(received(forAdmin));
    const forMiaLater = all.filter((event) => !hidden.has(event.id)).map((event) => event.id);
    expect(received(forMia).map((event) => event.id)).toEqual(forMiaLater);
    // The same from the log, when she resumes from before all of it.
    const resumed = await stream('', { ...mia.headers, 'last-event-id': since });
    await until(resumed, last);
    expect(resumed.logEvents().map((event) => event.id)).toEqual(forMiaLater);
  });

  it('answers bad input before streaming: an unknown type names it, a malformed Last-Event-ID, an unknown parameter', async () => {
    const unknownType = await harness.app.inject({ url: '/v1/events/stream?type=ticket.exploded', headers: acme.headers });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringContaining('"ticket.exploded"'),
    });
    const listed = await harness.app.inject({ url: '/v1/events?type=ticket.exploded', headers: acme.headers });
    expect(unknownType.json().message).toBe(listed.json().message);
    for (const [url, headers] of [
      ['/v1/events/stream', { 'last-event-id': 'abc' }],
      ['/v1/events/stream', { 'last-event-id': '12345678901234567' }],
      ['/v1/events/stream?lastEventId=-1', {}],
      ['/v1/events/stream?since=1', {}],
    ] as const) {
      const response = await harness.app.inject({ url, headers: { ...acme.headers, ...headers } });
      expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it("asks for a key in the area's shape, and ends a stream whose key is revoked", async () => {
    for (const headers of [{}, { 'x-api-key': `sbk_abcdefgh_${'A'.repeat(43)}` }] as Headers[]) {
      const response = await openSse(`${base}/v1/events/stream`, headers);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ statusCode: 401, message: 'User is not authenticated!', error: 'Unauthorized' });
    }
    const leaving = await makeUser(harness, acme.organizationId, { name: 'Lee' });
    const client = await stream('', leaving.headers);
    await revokeApiKey(harness.db, harness.clock, leaving.apiKeyPrefix);
    // Checked again at the next heartbeat.
    await client.ended;
    expect((await openSse(`${base}/v1/events/stream`, leaving.headers)).status).toBe(401);
  });

  it('serves a browser signed in with a session cookie, past heartbeats, until the session ends', async () => {
    const email = `sam-${dialect}@acme.test`;
    const sam = await makeUser(harness, acme.organizationId, { name: 'Sam', email });
    await setUserPassword(harness.db, sam.userId, await hashPassword('correct horse battery staple'), TEST_NOW);
    const browser = await signInBrowser(harness.app, email, 'correct horse battery staple');
    const lastSeen = async () =>
      (
        await harness.db
          .selectFrom('user_sessions')
          .select('last_seen_at')
          .where('id', '=', browser.sessionId)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const seenAtSignIn = await lastSeen();
    const client = await stream('', { cookie: browser.cookie });
    // Heartbeats check the session again, without counting as the user's activity.
    harness.clock.advance(5 * 60_000);
    await client.until((c) => c.comments.filter((line) => line === 'heartbeat').length >= 2, 'two heartbeats');
    const ticket = await create({ title: 'Seen in the browser' });
    await client.until((c) => c.logEvents().some((event) => JSON.parse(event.data).data?.id === ticket.id), 'the new ticket');
    expect(await lastSeen()).toBe(seenAtSignIn);
    const signOut = await asBrowser(harness.app, browser, { method: 'POST', url: '/v1/auth/logout' });
    expect(signOut.statusCode, signOut.body).toBe(200);
    await client.ended;
  });

  it('sends a heartbeat comment on a quiet stream', async () => {
    const client = await stream();
    await client.until((c) => c.comments.includes('heartbeat'), 'a heartbeat');
    expect(client.logEvents()).toEqual([]);
  });

  it('resumes after Last-Event-ID from the log: what was committed while away, then live, none twice', async () => {
    const first = await stream();
    const ticket = await create();
    const seen = await lastId();
    await until(first, seen);
    first.close();

    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'While you were away' });
    await create();
    const missed = await eventsSince(seen);
    expect(missed).toHaveLength(2);
    const back = await stream('', { ...acme.headers, 'last-event-id': seen });
    expect(readyId(back)).toBe(seen);
    await until(back, missed[1]?.id ?? '');
    await create();
    const all = await eventsSince(seen);
    await until(back, all.at(-1)?.id ?? '');
    expect(back.logEvents().map((event) => event.id)).toEqual(all.map((event) => event.id));

    // The same from the query, for clients that cannot set headers; the header wins when both are sent.
    const byQuery = await stream(`?lastEventId=${Number(seen)}`);
    await until(byQuery, all.at(-1)?.id ?? '');
    expect(byQuery.logEvents().map((event) => event.id)).toEqual(all.map((event) => event.id));
    const both = await stream(`?lastEventId=${seen}`, { ...acme.headers, 'last-event-id': all[0]?.id ?? '' });
    await until(both, all.at(-1)?.id ?? '');
    expect(both.logEvents().map((event) => event.id)).toEqual(all.slice(1).map((event) => event.id));
    // Filtered: the log is read for those types only.
    const comments = await stream(`?lastEventId=${seen}&type=comment.created`);
    const comment = all.find((event) => event.type === 'comment.created');
    await until(comments, comment?.id ?? '');
    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Back again' });
    const newest = await lastId();
    await until(comments, newest);
    expect(comments.logEvents().map((event) => event.id)).toEqual([comment?.id, newest]);
  });

  it('resumes without a gap or a duplicate while changes commit during the catch-up', async () => {
    const since = await lastId();
    await Promise.all([create(), create()]);
    const writes = Promise.all(Array.from({ length: 6 }, () => create()));
    const client = await stream('', { ...acme.headers, 'last-event-id': since });
    await writes;
    await create();
    const all = await eventsSince(since);
    await until(client, all.at(-1)?.id ?? '');
    const ids = client.logEvents().map((event) => Number(event.id));
    expect(ids).toEqual(all.map((event) => Number(event.id)));
    expect(ids).toEqual(ids.map((_, index) => Number(since) + 1 + index));
  });

  it('reaches a stream on another server process (another app on its own pool on PostgreSQL)', async () => {
    const processes = await serverProcesses(harness);
    try {
      const other = processes.apps.at(-1);
      const at = other === harness.app || !other ? base : await other.listen({ host: '127.0.0.1', port: 0 });
      const client = await stream('', acme.headers, at);
      // Caused through the first process.
      const ticket = await create();
      const id = await lastId();
      await until(client, id);
      expect(received(client)).toEqual([{ id, type: 'ticket.created', data: ticket }]);
    } finally {
      await processes.close();
    }
  });

  it('sends every event once to each of many streams', async () => {
    const clients = await Promise.all(
      Array.from({ length: 50 }, (_, index) => stream('', index % 2 === 0 ? acme.headers : tom.headers)),
    );
    const since = readyId(clients[0] as SseClient);
    const ticket = await create();
    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'To everyone' });
    await create();
    const all = await eventsSince(since);
    await Promise.all(clients.map((client) => until(client, all.at(-1)?.id ?? '')));
    for (const client of clients) {
      expect(client.logEvents().map((event) => event.id)).toEqual(all.map((event) => event.id));
    }
  });

  it('answers 503 past EVENT_STREAM_MAX_CONNECTIONS, sends nothing from before a stream began, ends streams on close', async () => {
    // Watching once a second: this app's streams learn late of what the harness's app commits (on SQLite; on
    // PostgreSQL the harness's app may watch for both).
    const config = testConfig({ EVENT_STREAM_MAX_CONNECTIONS: '2', EVENT_WATCH_INTERVAL_MS: '1000' });
    const app = await buildApp({ config, db: harness.db, clock: harness.clock, log: pino({ level: 'silent' }) });
    const at = await app.listen({ host: '127.0.0.1', port: 0 });
    const early = await stream('', acme.headers, at);
    await create();
    const before = await lastId();
    // Asked for after that commit, possibly before this app's reader has read it.
    const late = await stream('', tom.headers, at);
    expect(readyId(late)).toBe(before);
    const refused = await openSse(`${at}/v1/events/stream`, acme.headers);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    await until(early, before);
    await create();
    const after = await lastId();
    await Promise.all([until(early, after), until(late, after)]);
    expect(late.logEvents().map((event) => event.id)).toEqual([after]);
    expect(early.logEvents().map((event) => event.id)).toEqual([before, after]);

    await Promise.all([app.close(), early.ended, late.ended]);
  });

  it('drops a client too slow to read what it is sent, rather than keeping it all in memory', async () => {
    const app = await buildApp({ config: harness.config, db: harness.db, clock: harness.clock, log: pino({ level: 'silent' }) });
    const at = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
    const connections = () => new Promise<number>((resolve) => app.server.getConnections((_, count) => resolve(count)));
    // A client that asks for the stream, then reads nothing more.
    const slow = connect(Number(at.port), '127.0.0.1', () =>
      slow.write(`GET /v1/events/stream HTTP/1.1\r\nhost: ${at.host}\r\nx-api-key: ${acme.apiKey}\r\n\r\n`),
    );
    await new Promise((resolve) => slow.once('data', resolve));
    slow.pause();
    try {
      // Big events until what waits for it passes what the kernel's socket buffers and the server's allowance hold.
      const description = 'x'.repeat(99_000);
      let sent = 0;
      while ((await connections()) > 0 && sent < 500) {
        await Promise.all(Array.from({ length: 10 }, () => create({ description })));
        sent += 10;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await connections()).toBe(0);
    } finally {
      slow.destroy();
      await app.close();
    }
  });

  // Last: retention deletes the old events of every organization of this database.
  it('tells a client resuming from before what retention deleted to reload, then streams on', async () => {
    const old = await lastId();
    harness.clock.set('2026-03-01T09:00:00.000Z');
    await create();
    const kept = await eventsSince(old);
    const worker = createEventRetentionWorker({ db: harness.db, clock: harness.clock, config: harness.config, log: pino() });
    while ((await worker.runOnce()) > 0) {
      // A batch at a time.
    }
    const end = await lastId();
    expect(kept.at(-1)?.id).toBe(end);

    const stale = await stream('', { ...acme.headers, 'last-event-id': String(Number(old) - 1) });
    expect(stale.events.map((event) => [event.event, event.id])).toEqual([
      ['reset', end],
      ['ready', end],
    ]);
    expect(JSON.parse(stale.events[0]?.data ?? '')).toMatchObject({
      lastEventId: end,
      message: expect.stringContaining('reload'),
    });
    const future = await stream('', { ...acme.headers, 'last-event-id': String(Number(end) + 10) });
    expect(future.events.map((event) => event.event)).toEqual(['reset', 'ready']);
    // From just before what is kept, nothing is missing: the kept events are sent.
    const fine = await stream('', { ...acme.headers, 'last-event-id': old });
    await until(fine, end);
    expect(fine.events.map((event) => event.event)).toEqual(['ready', ...kept.map((event) => event.type)]);

    await create();
    const next = await lastId();
    await Promise.all([until(stale, next), until(future, next), until(fine, next)]);
    expect(stale.logEvents().map((event) => event.id)).toEqual([next]);
  });
});
