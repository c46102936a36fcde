import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/http/json-body.js';
import { DIALECTS } from './dialects.js';
import { makeOrganization, type TestOrganization } from './factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from './harness.js';
import { startPublicMcpServer, type TestMcpServer } from './mcp/mcp-servers.js';

/** `{"a":{"a":…}}` nested `depth` objects deep, as text (JSON.stringify itself would overflow). */
const deeplyNested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const platformError = (statusCode: number, message: string | RegExp, error = 'Bad Request') => ({
  statusCode,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  error,
});

describe.each(DIALECTS)('malformed requests on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let mcp: TestMcpServer;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    acme = await makeOrganization(harness);
    mcp = await startPublicMcpServer();
    const create = async (url: string, payload: object) => {
      const response = await harness.app.inject({ method: 'POST', url, headers: acme.headers, payload });
      expect(response.statusCode, response.body).toBeLessThan(300);
      const json = response.json();
      return (json.data ?? json) as Record<string, string>;
    };
    ids.team = (await create('/v1/teams', { name: 'Support' })).id as string;
    ids.ticket = (await create('/v1/tickets', { title: 'Help', requestorEmail: 'c@example.com', teamId: ids.team })).id as string;
    ids.comment = (await create(`/v1/tickets/${ids.ticket}/comment`, { content: 'Hello' })).id as string;
    ids.account = (await create('/v1/accounts', { name: 'Globex', primaryDomain: 'globex.example' })).id as string;
    ids.contact = (await create('/v1/accounts/contacts', { firstName: 'Ann', email: 'ann@globex.example' })).id as string;
    ids.note = (await create('/v1/accounts/notes', { accountId: ids.account, content: 'Call back' })).id as string;
    ids.helpCenter = (await create('/help-centers', { name: 'Docs' }))._id as string;
    ids.collection = (await create('/collections', { helpCenterId: ids.helpCenter, name: 'Guides' }))._id as string;
    ids.article = (await create('/articles', { title: 'Start', collectionId: ids.collection }))._id as string;
    ids.agent = (await create('/api/v1/agents', { name: 'Bot' })).id as string;
    ids.thread = (await create(`/api/v1/chat/${ids.agent}/threads`, { title: 'Chat' })).id as string;
    ids.server = (await create(`/api/v1/mcp/agents/${ids.agent}/servers`, { name: 'Tools', url: mcp.url })).id as string;
  });
  afterAll(async () => {
    await harness?.close();
    await mcp?.close();
  });

  const send = (method: string, url: string, payload: string | undefined, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({
      method: method as 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload }),
    });

  describe('a body nested deeper than the limit is refused naming its field, before anything is stored', () => {
    const routes = () =>
      [
        ['POST', '/v1/tickets', { title: 't', requestorEmail: 'c@example.com', teamId: ids.team }],
        ['PATCH', `/v1/tickets/${ids.ticket}`, {}],
        ['POST', `/v1/tickets/${ids.ticket}/comment`, { content: 'x' }],
        ['PATCH', `/v1/tickets/${ids.ticket}/comments/${ids.comment}`, { content: 'x' }],
        ['POST', '/v1/accounts', { name: 'n', primaryDomain: 'n.example' }],
        ['PUT', `/v1/accounts/${ids.account}`, { name: 'n', primaryDomain: 'n.example' }],
        ['POST', '/v1/accounts/contacts', { firstName: 'f', email: 'f@n.example' }],
        ['PUT', `/v1/accounts/contacts/${ids.contact}`, { firstName: 'f', email: 'f@n.example' }],
        ['POST', '/v1/accounts/notes', { accountId: ids.account, content: 'x' }],
        ['PUT', `/v1/accounts/notes/${ids.note}`, { content: 'x' }],
        ['POST', '/v1/custom-field', { name: 'f', source: 'ticket', fieldType: 'single_line' }],
        ['POST', '/api/v1/agents', { name: 'a' }],
        ['PUT', `/api/v1/agents/${ids.agent}`, { name: 'a' }],
        ['POST', `/api/v1/agents/${ids.agent}/tools`, { agent_id: ids.agent, tool_name: 'x', tool_type: 'built_in' }],
        ['POST', `/api/v1/chat/${ids.agent}/threads`, { title: 't' }],
        ['POST', `/api/v1/chat/${ids.agent}/threads/${ids.thread}/messages`, { content: 'x', role: 'user' }],
      ] as const;

    it('answers 400 (422 in the agent studio) naming metadata, 20,000 levels deep in 120 kB', async () => {
      for (const [method, url, body] of routes()) {
        const json = JSON.stringify(body);
        const payload = `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"metadata":${deeplyNested(20_000)}}`;
        expect(payload.length).toBeGreaterThan(100_000);
        const response = await send(method, url, payload);
        if (url.startsWith('/api/v1')) {
          expect(response.statusCode, `${method} ${url}`).toBe(422);
          expect(response.json().detail, `${method} ${url}`).toEqual([
            { loc: ['body', 'metadata'], msg: `is nested more than ${MAX_JSON_DEPTH} levels deep`, type: 'value_error' },
          ]);
        } else {
          expect(response.statusCode, `${method} ${url}`).toBe(400);
          expect(response.json().message, `${method} ${url}`).toBe(`metadata is nested more than ${MAX_JSON_DEPTH} levels deep`);
        }
      }
      const tickets = await harness.app.inject({ url: '/v1/tickets?limit=100', headers: acme.headers });
      expect(tickets.json().data.items ?? tickets.json().data).toHaveLength(1);
    });

    it('accepts metadata nested up to the limit', async () => {
      const metadata = JSON.parse(deeplyNested(MAX_JSON_DEPTH - 2));
      const response = await harness.app.inject({
        method: 'POST',
        url: `/api/v1/chat/${ids.agent}/threads`,
        headers: acme.headers,
        payload: { title: 'deep', metadata },
      });
      expect(response.statusCode, response.body).toBe(200);
    });
  });

  describe('page and offset have a maximum', () => {
    it.each([
      '/v1/tickets?page=1e18',
      '/v1/users/list?page=1000000001',
      '/v1/outbox?page=99999999999999999999',
      '/v1/accounts?page=1e18',
      '/v1/accounts/contacts?page=1e18',
    ])('%s is a 400 naming page', async (url) => {
      const response = await harness.app.inject({ url, headers: acme.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(platformError(400, /^page must be at most 1000000000/));
    });

    it('comments of a ticket: page 1e18 is a 400', async () => {
      const response = await harness.app.inject({ url: `/v1/tickets/${ids.ticket}/comments?page=1e18`, headers: acme.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^page must be at most/);
    });

    it.each(['threads', 'messages'])('chat %s: offset 99999999999999999999 is a 422 naming offset', async (list) => {
      const url =
        list === 'threads'
          ? `/api/v1/chat/${ids.agent}/threads?offset=99999999999999999999`
          : `/api/v1/chat/${ids.agent}/threads/${ids.thread}/messages?offset=99999999999999999999`;
      const response = await harness.app.inject({ url, headers: acme.headers });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0]).toMatchObject({ loc: ['query', 'offset'], type: 'less_than_equal' });
    });

    it('the largest page is answered (empty)', async () => {
      const response = await harness.app.inject({ url: '/v1/tickets?page=1000000000&limit=100', headers: acme.headers });
      expect(response.statusCode, response.body).toBe(200);
    });
  });

  describe('the NUL character is refused at validation, naming the field, on both databases alike', () => {
    it('in a body string', async () => {
      const response = await send('POST', '/v1/teams', '{"name":"a\\u0000b"}');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(platformError(400, 'name must not contain the NUL character (\\u0000)'));
      const teams = await harness.app.inject({ url: '/v1/teams', headers: acme.headers });
      expect(JSON.stringify(teams.json())).not.toContain('a\\u0000b');
    });

    it('in a nested body string and in a key', async () => {
      const nested = await send(
        'POST',
        `/v1/tickets/${ids.ticket}/comment`,
        '{"content":"x","metadata":{"list":["ok","\\u0000"]}}',
      );
      expect(nested.statusCode).toBe(400);
      expect(nested.json().message).toBe('metadata.list.1 must not contain the NUL character (\\u0000)');
      const key = await send('POST', `/v1/tickets/${ids.ticket}/comment`, '{"content":"x","metadata":{"a\\u0000":1}}');
      expect(key.statusCode).toBe(400);
    });

    it('in a path id', async () => {
      const response = await harness.app.inject({ url: '/v1/accounts/%00', headers: acme.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^id must not contain the NUL character/);
    });

    it('in a query value', async () => {
      const response = await harness.app.inject({ url: `/v1/teams/${ids.team}/members?search=%00`, headers: acme.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^search must not contain the NUL character/);
    });

    it('in the help center and the agent studio, in their shapes', async () => {
      const tag = await send('POST', '/tags', '{"name":"\\u0000"}');
      expect(tag.statusCode).toBe(400);
      expect(tag.json()).toEqual({ statusCode: 400, message: 'name must not contain the NUL character (\\u0000)' });
      const agent = await send('POST', '/api/v1/agents', '{"name":"x\\u0000"}');
      expect(agent.statusCode).toBe(422);
      expect(agent.json().detail).toEqual([
        { loc: ['body', 'name'], msg: 'must not contain the NUL character (\\u0000)', type: 'value_error' },
      ]);
    });
  });

  describe('a number JSON reads as infinity is refused naming its field, before anything is stored', () => {
    it("platform: 400 on an account and in a comment's metadata", async () => {
      const account = await send('PUT', `/v1/accounts/${ids.account}`, '{"annualRevenue": 1e309}');
      expect(account.statusCode).toBe(400);
      expect(account.json()).toEqual(platformError(400, 'annualRevenue must be a finite number'));
      const stored = await harness.db
        .selectFrom('accounts')
        .select(['annual_revenue', 'updated_at'])
        .where('id', '=', ids.account as string)
        .executeTakeFirstOrThrow();
      expect(stored.annual_revenue).toBeNull();

      const comment = await send('POST', `/v1/tickets/${ids.ticket}/comment`, '{"content":"x","metadata":{"score":[1,-1e999]}}');
      expect(comment.statusCode).toBe(400);
      expect(comment.json()).toEqual(platformError(400, 'metadata.score.1 must be a finite number'));
      const comments = await harness.app.inject({ url: `/v1/tickets/${ids.ticket}/comments`, headers: acme.headers });
      expect(comments.json().data.map((row: { content: string }) => row.content)).toEqual(['Hello']);
    });

    it('help center: 400 in its shape', async () => {
      const moved = await send('PATCH', `/collections/${ids.collection}`, '{"order": 1e309}');
      expect(moved.statusCode).toBe(400);
      expect(moved.json()).toEqual({ statusCode: 400, message: 'order must be a finite number' });
      const tags = await send('GET', '/tags?limit=1e309', undefined);
      expect(tags.statusCode).toBe(400);
      expect(tags.json().statusCode).toBe(400);
    });

    it('agent studio: 422 in its shape, on an agent and a chat thread', async () => {
      const agent = await send('PUT', `/api/v1/agents/${ids.agent}`, '{"metadata":{"weight":1e309}}');
      expect(agent.statusCode).toBe(422);
      expect(agent.json()).toEqual({
        detail: [{ loc: ['body', 'metadata', 'weight'], msg: 'Input should be a finite number', type: 'finite_number' }],
      });
      const stored = await harness.app.inject({ url: `/api/v1/agents/${ids.agent}`, headers: acme.headers });
      expect(stored.json().metadata).not.toEqual({ weight: null });
      const thread = await send('POST', `/api/v1/chat/${ids.agent}/threads`, '{"title":"t","metadata":{"n":-1e400}}');
      expect(thread.statusCode).toBe(422);
      expect(thread.json().detail[0]).toMatchObject({ loc: ['body', 'metadata', 'n'], type: 'finite_number' });
    });
  });

  describe('requests the router refuses are answered in their area shape, after authentication', () => {
    it.each([
      ['/api/v1/agents/%ZZ', 'agentStudio'],
      ['/v1/users/%ZZ', 'platform'],
      ['/articles/%ZZ', 'helpCenter'],
    ])('a malformed percent-encoding: %s', async (url, area) => {
      const anonymous = await harness.app.inject({ url });
      expect(anonymous.statusCode).toBe(401);
      const response = await harness.app.inject({ url, headers: acme.headers });
      const message = 'The URL is malformed: a percent sign must start a valid %XX escape';
      if (area === 'agentStudio') {
        expect(anonymous.json()).toEqual({ detail: 'Not authenticated' });
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({ detail: [{ loc: ['path'], msg: message, type: 'value_error' }] });
      } else if (area === 'platform') {
        expect(anonymous.json()).toEqual(platformError(401, 'User is not authenticated!', 'Unauthorized'));
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(platformError(400, message));
      } else {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ statusCode: 400, message });
      }
      expect(response.headers['x-request-id']).toBeTruthy();
    });

    it('a custom-field path answers in the custom-field shape, its 401 too', async () => {
      for (const url of ['/v1/custom-field/%ZZ', '/v1/custom-field/%E0%A4%A', `/v1/custom-field/${'a'.repeat(1_200)}`]) {
        const anonymous = await harness.app.inject({ url });
        expect(anonymous.statusCode, url).toBe(401);
        expect(anonymous.json()).toEqual({ message: 'User is not authenticated!', statusCode: 401, timestamp: TEST_NOW });
        const response = await harness.app.inject({ url, headers: acme.headers });
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toEqual({ message: expect.any(String), statusCode: 400, timestamp: TEST_NOW });
        expect(Object.keys(response.json())).toEqual(['message', 'statusCode', 'timestamp']);
      }
      const bad = await harness.app.inject({ url: '/v1/custom-field/%ZZ?source=ticket', headers: acme.headers });
      expect(bad.json().message).toBe('The URL is malformed: a percent sign must start a valid %XX escape');
      // Other platform paths keep the platform's shape.
      const other = await harness.app.inject({ url: '/v1/custom-fields/%ZZ', headers: acme.headers });
      expect(other.json()).toEqual(platformError(400, 'The URL is malformed: a percent sign must start a valid %XX escape'));
    });

    it('a path parameter of 200 characters is a 400 naming it', async () => {
      const response = await harness.app.inject({ url: `/v1/users/${'a'.repeat(200)}`, headers: acme.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(platformError(400, /^userId /));
    });

    it('a path parameter over 1,000 characters is a 400 in the area shape, 401 without a key', async () => {
      const url = `/v1/users/${'a'.repeat(1_200)}`;
      expect((await harness.app.inject({ url })).statusCode).toBe(401);
      const response = await harness.app.inject({ url, headers: acme.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(platformError(400, 'A path parameter is longer than 1000 characters'));
    });
  });

  describe('authentication comes before any other complaint', () => {
    it.each([
      ['malformed JSON', '{"name":'],
      ['a body too deep', deeplyNested(20_000)],
      ['an empty JSON body', ''],
      ['a NUL character', '{"name":"\\u0000"}'],
    ])('%s without a key is a 401', async (_, payload) => {
      for (const url of ['/v1/teams', '/api/v1/agents', '/tags']) {
        const response = await send('POST', url, payload, {});
        expect(response.statusCode, url).toBe(401);
      }
    });
  });

  describe('malformed JSON', () => {
    it('agent studio: 422 json_invalid located at the character position', async () => {
      const response = await send('POST', '/api/v1/agents', '{"name": "Bot",}');
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: [{ loc: ['body', 15], msg: 'JSON decode error', type: 'json_invalid' }] });
    });

    it('platform and help center: 400 in their shapes', async () => {
      const platform = await send('POST', '/v1/teams', '{"name" "x"}');
      expect(platform.json()).toEqual(platformError(400, 'Request body is not valid JSON'));
      const helpCenter = await send('POST', '/tags', '[1,');
      expect(helpCenter.json()).toEqual({ statusCode: 400, message: 'Request body is not valid JSON' });
    });
  });

  describe('an empty body with a JSON content type is no body', () => {
    it('accepted by routes that take no body', async () => {
      const key = await send('POST', `/v1/users/${acme.userId}/api-keys`, '');
      expect(key.statusCode, key.body).toBe(201);
      const publish = await send('POST', `/articles/${ids.article}/publish`, '');
      expect(publish.statusCode, publish.body).toBe(200);
      const connect = await send('POST', `/api/v1/mcp/agents/${ids.agent}/servers/${ids.server}/connect`, '');
      expect(connect.statusCode, connect.body).toBe(200);
      expect(connect.json()).toMatchObject({ status: 'connected' });
    });

    it('a route that needs a body says the body is missing', async () => {
      const platform = await send('POST', '/v1/teams', '');
      expect(platform.statusCode).toBe(400);
      expect(platform.json()).toEqual(platformError(400, 'body must be an object'));
      const agentStudio = await send('POST', '/api/v1/agents', '   ');
      expect(agentStudio.statusCode).toBe(422);
    });
  });
});
