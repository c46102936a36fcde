import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

type Headers = { 'x-api-key': string };
type Thread = { id: string; last_activity_at: string; messages: { content: string }[] };
const UNKNOWN_UUID = '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c';

describe.each(DIALECTS)('chat threads, messages and history on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let agentId: string;
  let otherAgentId: string;

  const request = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const newUser = () => makeUser(harness, acme.organizationId);
  const createThread = async (headers: Headers, agent = agentId, payload: object = {}) => {
    const response = await request('POST', `/chat/${agent}/threads`, headers, payload);
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const addMessage = (headers: Headers, threadId: string, payload: object, agent = agentId) =>
    request('POST', `/chat/${agent}/threads/${threadId}/messages`, headers, payload);
  const history = async (headers: Headers, query = '') => {
    const response = await request('GET', `/chat/history${query}`, headers);
    expect(response.statusCode).toBe(200);
    return response.json() as { items: Thread[]; next_cursor: string | null };
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    agentId = (await request('POST', '/agents', acme.headers, { name: 'Helper' })).json().id;
    otherAgentId = (await request('POST', '/agents', acme.headers, { name: 'Other helper' })).json().id;
  });
  afterAll(() => harness.close());

  it('creates a thread for the caller: 200, upstream shape, no messages yet', async () => {
    const user = await newUser();
    const at = harness.clock.now().toISOString();
    const response = await request('POST', `/chat/${agentId}/threads`, user.headers, {
      agent_id: agentId,
      title: 'Refund question',
      metadata: { channel: 'web' },
      unknown_field: 'ignored',
    });
    expect(response.statusCode).toBe(200);
    const thread = response.json();
    expect(thread).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agent_id: agentId,
      user_id: user.userId,
      anon_user_id: null,
      organization_id: acme.organizationId,
      title: 'Refund question',
      metadata: { channel: 'web' },
      last_activity_at: at,
      created_at: at,
      updated_at: at,
      messages: [],
    });
    expect((await request('GET', `/chat/${agentId}/threads/${thread.id}`, user.headers)).json()).toEqual(thread);
    const bare = await request('POST', `/chat/${agentId}/threads`, user.headers, {});
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toMatchObject({ title: null, metadata: null });
    // As upstream (FastAPI), the body itself is required, even though each of its fields is optional.
    const noBody = await request('POST', `/chat/${agentId}/threads`, user.headers);
    expect(noBody.statusCode).toBe(422);
    expect(noBody.json().detail).toEqual([expect.objectContaining({ loc: ['body'] })]);
  });

  it('rejects a body agent_id other than the path’s and malformed input with 422s', async () => {
    const user = await newUser();
    const mismatch = await request('POST', `/chat/${agentId}/threads`, user.headers, { agent_id: otherAgentId });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({
      detail: [
        { loc: ['body', 'agent_id'], msg: 'Value error, agent_id must equal the agent_id in the path', type: 'value_error' },
      ],
    });
    const badTitle = await request('POST', `/chat/${agentId}/threads`, user.headers, { title: 5, metadata: 'x' });
    expect(badTitle.json()).toEqual({
      detail: [
        { loc: ['body', 'title'], msg: 'Input should be a valid string', type: 'string_type' },
        { loc: ['body', 'metadata'], msg: 'Input should be a valid dictionary', type: 'dict_type' },
      ],
    });
    const badPath = await request('POST', '/chat/nope/threads', user.headers, {});
    expect(badPath.json()).toEqual({
      detail: [{ loc: ['path', 'agent_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }],
    });
    expect((await history(user.headers)).items).toEqual([]);
  });

  it('only the agent’s organization may use it: another organization’s, a deleted and an unknown agent are 404', async () => {
    const user = await newUser();
    const thread = await createThread(user.headers);
    const deleted = (await request('POST', '/agents', acme.headers, { name: 'Doomed' })).json().id;
    const doomedThread = await createThread(user.headers, deleted);
    await request('DELETE', `/agents/${deleted}`, acme.headers);
    const attempts = [
      request('POST', `/chat/${agentId}/threads`, globex.headers, {}),
      request('GET', `/chat/${agentId}/threads`, globex.headers),
      request('GET', `/chat/${agentId}/threads/${thread.id}`, globex.headers),
      addMessage(globex.headers, thread.id, { content: 'hi', role: 'user' }),
      request('GET', `/chat/${deleted}/threads/${doomedThread.id}`, user.headers),
      request('POST', `/chat/${UNKNOWN_UUID}/threads`, user.headers, {}),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Agent not found' });
    }
    // The deleted agent's thread leaves the history too.
    expect((await history(user.headers)).items.map((item) => item.id)).toEqual([thread.id]);
  });

  it('a thread belongs to its user: others of the organization, even admins, get 404 and never see it', async () => {
    const owner = await newUser();
    const colleague = await newUser();
    const thread = await createThread(owner.headers, agentId, { title: 'Private' });
    for (const headers of [colleague.headers, acme.headers]) {
      const attempts = [
        request('GET', `/chat/${agentId}/threads/${thread.id}`, headers),
        request('GET', `/chat/${agentId}/threads/${thread.id}/messages`, headers),
        addMessage(headers, thread.id, { content: 'sneaky', role: 'user' }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'Chat thread not found' });
      }
      expect(
        (await request('GET', `/chat/${agentId}/threads`, headers)).json().map((row: { id: string }) => row.id),
      ).not.toContain(thread.id);
      expect((await history(headers)).items.map((item) => item.id)).not.toContain(thread.id);
    }
    // A thread is reached through its own agent only.
    expect((await request('GET', `/chat/${otherAgentId}/threads/${thread.id}`, owner.headers)).json()).toEqual({
      detail: 'Chat thread not found',
    });
  });

  it('adds messages: 200, upstream shape, tool calls normalised, HTML sanitised, thread bumped', async () => {
    const user = await newUser();
    const thread = await createThread(user.headers);
    harness.clock.advance(60_000);
    const response = await addMessage(user.headers, thread.id, {
      content: 'Looking that up',
      role: 'assistant',
      content_html: '<p>Looking <b>that</b> up</p><script>alert(1)</script>',
      metadata: { model: 'small' },
      tool_calls: [
        {
          tool_name: 'ticket_lookup',
          arguments: { id: 'WED-5' },
          result: { status: 'open' },
          start_time: '2026-01-15T09:01:00.000Z',
        },
      ],
      agent_id: agentId,
    });
    expect(response.statusCode).toBe(200);
    const at = harness.clock.now().toISOString();
    expect(response.json()).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      thread_id: thread.id,
      content: 'Looking that up',
      content_html: '<p>Looking <b>that</b> up</p>',
      role: 'assistant',
      tool_calls: [
        {
          tool_name: 'ticket_lookup',
          arguments: { id: 'WED-5' },
          result: { status: 'open' },
          error: null,
          start_time: '2026-01-15T09:01:00.000Z',
          end_time: null,
        },
      ],
      attachments: [],
      metadata: { model: 'small' },
      created_at: at,
      feedback: null,
    });
    const reread = (await request('GET', `/chat/${agentId}/threads/${thread.id}`, user.headers)).json();
    expect(reread).toMatchObject({ last_activity_at: at, updated_at: at, created_at: thread.created_at });
    expect(reread.messages).toEqual([response.json()]);
  });

  it.each([
    [
      {},
      [
        ['body', 'content'],
        ['body', 'role'],
      ],
    ],
    [{ content: 'x', role: 'robot' }, [['body', 'role']]],
    [{ content: 7, role: 'user' }, [['body', 'content']]],
    [{ content: 'x', role: 'tool', tool_calls: [{ arguments: {} }] }, [['body', 'tool_calls', 0, 'tool_name']]],
    [{ content: 'x', role: 'user', agent_id: UNKNOWN_UUID }, [['body', 'agent_id']]],
  ])('rejects message %j with a 422 at %j, writing nothing', async (payload, locs) => {
    const user = await newUser();
    const thread = await createThread(user.headers);
    const response = await addMessage(user.headers, thread.id, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail.map((entry: { loc: unknown[] }) => entry.loc)).toEqual(locs);
    expect((await request('GET', `/chat/${agentId}/threads/${thread.id}/messages`, user.headers)).json()).toEqual([]);
  });

  it('pages messages oldest first with limit (1-100) and offset, in write order even within one millisecond', async () => {
    const user = await newUser();
    const thread = await createThread(user.headers);
    for (let n = 0; n < 7; n++) {
      await addMessage(user.headers, thread.id, { content: `m${n}`, role: n % 2 === 0 ? 'user' : 'assistant' });
    }
    const page = async (query: string) =>
      (await request('GET', `/chat/${agentId}/threads/${thread.id}/messages${query}`, user.headers))
        .json()
        .map((m: { content: string }) => m.content);
    expect(await page('')).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    expect(await page('?limit=3')).toEqual(['m0', 'm1', 'm2']);
    expect(await page('?limit=3&offset=5')).toEqual(['m5', 'm6']);
    for (const [query, loc] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?offset=-1', 'offset'],
    ]) {
      const response = await request('GET', `/chat/${agentId}/threads/${thread.id}/messages${query}`, user.headers);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0].loc).toEqual(['query', loc]);
    }
  });

  it('lists the caller’s threads with an agent, latest activity first, without messages', async () => {
    const user = await newUser();
    const first = await createThread(user.headers, agentId, { title: 'first' });
    harness.clock.advance(1000);
    const second = await createThread(user.headers, agentId, { title: 'second' });
    await createThread(user.headers, otherAgentId, { title: 'elsewhere' });
    harness.clock.advance(1000);
    await addMessage(user.headers, first.id, { content: 'bump', role: 'user' });
    const rows = (await request('GET', `/chat/${agentId}/threads`, user.headers)).json();
    expect(rows.map((row: { title: string }) => row.title)).toEqual(['first', 'second']);
    expect(rows[0]).not.toHaveProperty('messages');
    expect((await request('GET', `/chat/${agentId}/threads?limit=1&offset=1`, user.headers)).json()[0].id).toBe(second.id);
  });

  it('history (endpoint 17): the caller’s threads, latest activity first, each with its messages', async () => {
    const user = await newUser();
    const stranger = await newUser();
    const older = await createThread(user.headers, agentId, { title: 'older' });
    harness.clock.advance(1000);
    const newer = await createThread(user.headers, otherAgentId, { title: 'newer' });
    await createThread(stranger.headers, agentId, { title: 'not yours' });
    harness.clock.advance(1000);
    await addMessage(user.headers, older.id, { content: 'question', role: 'user' });
    await addMessage(user.headers, older.id, { content: 'answer', role: 'assistant' });

    const page = await history(user.headers);
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((item) => item.id)).toEqual([older.id, newer.id]);
    expect(page.items[0]?.messages.map((message) => message.content)).toEqual(['question', 'answer']);
    expect(page.items[0]?.last_activity_at).toBe(harness.clock.now().toISOString());
    expect(page.items[1]?.messages).toEqual([]);

    // A new message moves a thread to the top.
    harness.clock.advance(1000);
    expect((await addMessage(user.headers, newer.id, { content: 'later', role: 'user' }, otherAgentId)).statusCode).toBe(200);
    expect((await history(user.headers)).items.map((item) => item.id)).toEqual([newer.id, older.id]);
    expect((await history(user.headers, `?agent_id=${agentId}`)).items.map((item) => item.id)).toEqual([older.id]);
    expect((await history(user.headers, `?agent_id=${UNKNOWN_UUID}`)).items).toEqual([]);
  });

  it('a cursor walk over 25 threads with limit 10 returns each exactly once, ties on the same instant included', async () => {
    const user = await newUser();
    const created: string[] = [];
    for (let n = 0; n < 25; n++) {
      // Pairs of threads share an instant, so the id breaks ties.
      if (n % 2 === 0) {
        harness.clock.advance(1000);
      }
      created.push((await createThread(user.headers, n % 3 === 0 ? otherAgentId : agentId, { title: `t${n}` })).id);
    }
    await createThread((await newUser()).headers);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Thread[]; next_cursor: string | null } = await history(
        user.headers,
        `?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      sizes.push(page.items.length);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(sizes).toEqual([10, 10, 5]);
    expect(new Set(seen).size).toBe(25);
    expect([...seen].sort()).toEqual([...created].sort());
    // Newest activity first throughout the walk.
    const all = (await history(user.headers, '?limit=50')).items;
    expect(all.map((item) => item.id)).toEqual(seen);
    const times = all.map((item) => item.last_activity_at);
    expect([...times].sort().reverse()).toEqual(times);
    // Exactly limit threads: no next page is promised.
    expect((await history(user.headers, '?limit=25')).next_cursor).toBeNull();
    expect((await history(user.headers)).items).toHaveLength(10);
  });

  it.each([
    ['?cursor=not*base64', ['query', 'cursor']],
    [`?cursor=${Buffer.from('yesterday|abc').toString('base64url')}`, ['query', 'cursor']],
    [`?cursor=${Buffer.from(`2026-01-15T09:00:00.000Z|${UNKNOWN_UUID}|x`).toString('base64url')}`, ['query', 'cursor']],
    ['?cursor=', ['query', 'cursor']],
    ['?limit=0', ['query', 'limit']],
    ['?limit=51', ['query', 'limit']],
    ['?agent_id=abc', ['query', 'agent_id']],
  ])('history rejects %s with a 422 located at %j', async (query, loc) => {
    const user = await newUser();
    const response = await request('GET', `/chat/history${query}`, user.headers);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([expect.objectContaining({ loc })]);
  });

  it('a well-formed cursor for an instant is accepted and pages from there', async () => {
    const user = await newUser();
    const thread = await createThread(user.headers);
    const before = Buffer.from(`${thread.last_activity_at}|ffffffff-ffff-4fff-bfff-ffffffffffff`).toString('base64url');
    expect((await history(user.headers, `?cursor=${before}`)).items.map((item) => item.id)).toEqual([thread.id]);
    const after = Buffer.from(`${thread.last_activity_at}|00000000-0000-4000-8000-000000000000`).toString('base64url');
    expect((await history(user.headers, `?cursor=${after}`)).items).toEqual([]);
  });

  /** Every page of `url` by cursor, starting at `query`, as lists of `field`; the next cursor is in x-next-cursor. */
  const walk = async (url: string, query: string, headers: Headers, field: 'id' | 'content') => {
    const pages: string[][] = [];
    for (let cursor: string | undefined = ''; cursor !== undefined && pages.length < 20; ) {
      const response = await request('GET', `${url}?${cursor ? `limit=10&cursor=${cursor}` : query}`, headers);
      expect(response.statusCode, response.body).toBe(200);
      pages.push(response.json().map((row: Record<string, string>) => row[field]));
      cursor = response.headers['x-next-cursor'] as string | undefined;
    }
    return pages;
  };

  it('pages an agent’s threads by cursor, latest activity first; an offset page hands over to cursors', async () => {
    const user = await newUser();
    const stranger = await newUser();
    const threads: { id: string; last_activity_at: string }[] = [];
    for (let index = 0; index < 25; index++) {
      harness.clock.advance(index % 5 === 0 ? 1000 : 0);
      threads.push(await createThread(user.headers));
    }
    await createThread(stranger.headers);
    const newestFirst = threads
      .sort((a, b) => b.last_activity_at.localeCompare(a.last_activity_at) || (a.id < b.id ? 1 : -1))
      .map((thread) => thread.id);
    const url = `/chat/${agentId}/threads`;
    const pages = await walk(url, 'limit=10', user.headers, 'id');
    expect(pages).toEqual([newestFirst.slice(0, 10), newestFirst.slice(10, 20), newestFirst.slice(20)]);
    // A deep offset page gives the cursor of the page after it.
    expect(await walk(url, 'limit=10&offset=10', user.headers, 'id')).toEqual([newestFirst.slice(10, 20), newestFirst.slice(20)]);
    expect((await request('GET', `${url}?offset=20`, user.headers)).headers['x-next-cursor']).toBeUndefined();

    const cursor = (await request('GET', `${url}?limit=10`, user.headers)).headers['x-next-cursor'];
    const theirs = (await request('GET', `${url}?cursor=${cursor}`, stranger.headers)).json();
    expect(theirs.every((thread: { user_id: string }) => thread.user_id === stranger.userId)).toBe(true);
    expect((await request('GET', `${url}?cursor=${cursor}`, globex.headers)).statusCode).toBe(404);
    for (const query of [`?cursor=${cursor}&offset=10`, `?cursor=${cursor}&offset=0`]) {
      expect((await request('GET', `${url}${query}`, user.headers)).json()).toEqual({
        detail: [{ loc: ['query', 'cursor'], msg: 'cursor and offset cannot be combined', type: 'value_error' }],
      });
    }
    expect(
      (await request('GET', `${url}?cursor=${Buffer.from('["yesterday", "x"]').toString('base64url')}`, user.headers)).json(),
    ).toEqual({
      detail: [{ loc: ['query', 'cursor'], msg: 'cursor is not a nextCursor this list returned', type: 'value_error' }],
    });
  });

  it('pages a thread’s messages by cursor in write order; an offset page hands over to cursors', async () => {
    const user = await newUser();
    const thread = await createThread(user.headers);
    const contents = Array.from({ length: 25 }, (_, index) => `m${String(index).padStart(2, '0')}`);
    for (const content of contents) {
      await addMessage(user.headers, thread.id, { content, role: 'user' });
    }
    const url = `/chat/${agentId}/threads/${thread.id}/messages`;
    expect(await walk(url, 'limit=10', user.headers, 'content')).toEqual([
      contents.slice(0, 10),
      contents.slice(10, 20),
      contents.slice(20),
    ]);
    expect(await walk(url, 'limit=10&offset=5', user.headers, 'content')).toEqual([
      contents.slice(5, 15),
      contents.slice(15, 25),
    ]);
    const cursor = (await request('GET', `${url}?limit=10`, user.headers)).headers['x-next-cursor'];
    expect((await request('GET', `${url}?cursor=${cursor}&offset=3`, user.headers)).statusCode).toBe(422);
    const other = await createThread(user.headers);
    expect((await request('GET', `/chat/${agentId}/threads/${other.id}/messages?cursor=${cursor}`, user.headers)).json()).toEqual(
      [],
    );
  });
});
