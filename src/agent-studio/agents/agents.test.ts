import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

type Headers = { 'x-api-key': string };
const UNKNOWN_UUID = '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c';

describe.each(DIALECTS)('agents on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let mia: Awaited<ReturnType<typeof makeUser>>;
  let noah: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia Member' });
    noah = await makeUser(harness, acme.organizationId, { name: 'Noah Member' });
  });
  afterAll(() => harness.close());

  const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers = acme.headers, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const create = async (payload: object, headers: Headers = acme.headers) => {
    const response = await request('POST', '/agents', headers, payload);
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const agentCount = async () => (await request('GET', '/agents')).json().length as number;

  it('creates an agent: 200 and the upstream shape, with its creator and defaults', async () => {
    const response = await request('POST', '/agents', acme.headers, {
      name: 'Billing helper',
      description: 'Answers invoice questions',
      configuration: { model: 'small', temperature: 0.2 },
      avatar_url: 'https://cdn.example.com/a.png',
      metadata: { tier: 'gold' },
    });
    expect(response.statusCode).toBe(200);
    const agent = response.json();
    expect(agent).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      name: 'Billing helper',
      configuration: { model: 'small', temperature: 0.2 },
      template_id: null,
      organization_id: acme.organizationId,
      status: 'active',
      description: 'Answers invoice questions',
      avatar_url: 'https://cdn.example.com/a.png',
      metadata: { tier: 'gold' },
      files: [],
      team_id: [],
      completed_flows_count: 0,
      pending_flows_count: 0,
      created_by: acme.userId,
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
      usage: { month: '2026-01', tokens: 0, budget: null },
    });
    expect((await request('GET', `/agents/${agent.id}`)).json()).toEqual(agent);
  });

  it('a minimal agent gets an empty configuration; unknown body fields are ignored, as upstream', async () => {
    const agent = await create({ name: 'Minimal', bot_sub: 'ignored', status: 'inactive', template_id: UNKNOWN_UUID });
    expect(agent).toMatchObject({
      configuration: {},
      metadata: null,
      description: null,
      status: 'inactive',
      template_id: UNKNOWN_UUID,
    });
    expect(agent).not.toHaveProperty('bot_sub');
  });

  it.each([
    [{}, ['body', 'name'], 'missing', 'Field required'],
    [{ name: '' }, ['body', 'name'], 'string_too_short', 'String should have at least 1 character'],
    [{ name: 'X', status: 'paused' }, ['body', 'status'], 'enum', "Input should be 'active' or 'inactive'"],
    [{ name: 'X', configuration: [1] }, ['body', 'configuration'], 'dict_type', 'Input should be a valid dictionary'],
    [{ name: 'X', configuration: null }, ['body', 'configuration'], 'dict_type', 'Input should be a valid dictionary'],
    [{ name: 'X', template_id: 'abc' }, ['body', 'template_id'], 'uuid_parsing', 'Input should be a valid UUID'],
    [
      { name: 'X', avatar_url: 'not a url' },
      ['body', 'avatar_url'],
      'url_parsing',
      'Input should be a valid URL, with an http or https scheme',
    ],
    [
      { name: 'X', avatar_url: 'javascript:alert(1)' },
      ['body', 'avatar_url'],
      'url_parsing',
      'Input should be a valid URL, with an http or https scheme',
    ],
  ])('rejects %j with a 422 located at the field, writing nothing', async (payload, loc, type, msg) => {
    const before = await agentCount();
    const response = await request('POST', '/agents', acme.headers, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [{ loc, msg, type }] });
    expect(await agentCount()).toBe(before);
  });

  it('lists the organization’s agents oldest first, filtered by status; another organization’s never appear', async () => {
    const own = await create({ name: 'Listed', status: 'inactive' });
    const foreign = await create({ name: 'Foreign' }, globex.headers);
    const all = (await request('GET', '/agents')).json() as { id: string; status: string }[];
    expect(all.map((agent) => agent.id)).toContain(own.id);
    expect(all.map((agent) => agent.id)).not.toContain(foreign.id);
    const inactive = (await request('GET', '/agents?status=inactive')).json() as { status: string }[];
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.every((agent) => agent.status === 'inactive')).toBe(true);
    const active = (await request('GET', '/agents?status=active')).json() as { id: string }[];
    expect(active.map((agent) => agent.id)).not.toContain(own.id);
    expect((await request('GET', '/agents?status=paused')).json()).toEqual({
      detail: [{ loc: ['query', 'status'], msg: "Input should be 'active' or 'inactive'", type: 'enum' }],
    });
    // Members see every agent of the organization.
    expect(((await request('GET', '/agents', mia.headers)).json() as { id: string }[]).map((agent) => agent.id)).toContain(
      own.id,
    );
  });

  it('another organization’s agent and an unknown one are 404; a malformed id is a 422 in the path', async () => {
    const foreign = await create({ name: 'Globex only' }, globex.headers);
    for (const id of [foreign.id, UNKNOWN_UUID]) {
      for (const [method, payload] of [['GET'], ['PUT', { name: 'Mine' }], ['DELETE']] as const) {
        const response = await request(method, `/agents/${id}`, acme.headers, payload);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'Agent not found' });
      }
    }
    const malformed = await request('GET', '/agents/123');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json()).toEqual({
      detail: [{ loc: ['path', 'agent_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }],
    });
    expect((await request('GET', `/agents/${foreign.id}`, globex.headers)).statusCode).toBe(200);
  });

  it('updates the fields sent, keeps the others, clears with null; bumps updated_at', async () => {
    const agent = await create({ name: 'Before', description: 'Old', metadata: { a: 1 }, configuration: { k: 1 } });
    harness.clock.advance(60_000);
    const response = await request('PUT', `/agents/${agent.id}`, acme.headers, {
      name: 'After',
      description: null,
      status: 'inactive',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...agent,
      name: 'After',
      description: null,
      status: 'inactive',
      updated_at: new Date(Date.parse(agent.created_at) + 60_000).toISOString(),
    });
    const again = (await request('PUT', `/agents/${agent.id}`, acme.headers, { configuration: { k: 2 }, metadata: null })).json();
    expect(again).toMatchObject({ name: 'After', configuration: { k: 2 }, metadata: null });
    const invalid = await request('PUT', `/agents/${agent.id}`, acme.headers, { name: '', status: 'gone' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail.map((entry: { loc: string[] }) => entry.loc)).toEqual([
      ['body', 'name'],
      ['body', 'status'],
    ]);
  });

  it('only organization admins set agents up: members get 403 Access denied, even on an agent they made, and read them', async () => {
    const before = await agentCount();
    const refused = await request('POST', '/agents', mia.headers, { name: 'Mia’s own' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Access denied' });
    expect(await agentCount()).toBe(before);
    // One a member made while members still could: making it does not make it theirs to change.
    const agent = await create({ name: 'Mia’s agent' });
    await harness.db.updateTable('agents').set({ created_by_id: mia.userId }).where('id', '=', agent.id).execute();
    for (const member of [mia, noah]) {
      for (const [method, payload] of [['PUT', { name: 'Mine now' }], ['DELETE']] as const) {
        const denied = await request(method, `/agents/${agent.id}`, member.headers, payload);
        expect(denied.statusCode).toBe(403);
        expect(denied.json()).toEqual({ detail: 'Access denied' });
      }
    }
    expect((await request('PUT', `/agents/${agent.id}`, acme.headers, { description: 'by admin' })).statusCode).toBe(200);
    expect((await request('GET', `/agents/${agent.id}`, noah.headers)).json()).toMatchObject({
      name: 'Mia’s agent',
      description: 'by admin',
    });
  });

  it('deletes softly: {status, message}, then 404 everywhere; the row stays with deleted_at', async () => {
    const agent = await create({ name: 'Short-lived' });
    harness.clock.advance(1000);
    const response = await request('DELETE', `/agents/${agent.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', message: 'Agent deleted successfully' });
    expect((await request('GET', `/agents/${agent.id}`)).json()).toEqual({ detail: 'Agent not found' });
    expect((await request('DELETE', `/agents/${agent.id}`)).statusCode).toBe(404);
    expect(((await request('GET', '/agents')).json() as { id: string }[]).map((row) => row.id)).not.toContain(agent.id);
    const row = await harness.db.selectFrom('agents').select(['deleted_at']).where('id', '=', agent.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBe(harness.clock.now().toISOString());
  });

  it('requires an API key: 401 {detail}', async () => {
    const response = await harness.app.inject({ url: '/api/v1/agents' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Not authenticated' });
  });

  it('pages by cursor, oldest first, the next cursor in x-next-cursor; filters combine; each live agent once', async () => {
    const owner = await makeOrganization(harness);
    const names = Array.from({ length: 25 }, (_, index) => `Agent ${String(index).padStart(2, '0')}`);
    const agents: { id: string; name: string; status: string; created_at: string }[] = [];
    for (const [index, name] of names.entries()) {
      // Five agents per instant: the id breaks the ties.
      harness.clock.advance(index % 5 === 0 ? 1000 : 0);
      agents.push(await create({ name, status: index % 3 === 0 ? 'inactive' : 'active' }, owner.headers));
    }
    const removed = agents.pop();
    expect((await request('DELETE', `/agents/${removed?.id}`, owner.headers)).statusCode).toBe(200);
    const ordered = agents.sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1));
    const walk = async (query: string) => {
      const pages: string[][] = [];
      for (let cursor: string | undefined = ''; cursor !== undefined && pages.length < 20; ) {
        const response = await request('GET', `/agents?${query}${cursor ? `&cursor=${cursor}` : ''}`, owner.headers);
        expect(response.statusCode, response.body).toBe(200);
        pages.push(response.json().map((agent: { name: string }) => agent.name));
        cursor = response.headers['x-next-cursor'] as string | undefined;
      }
      return pages;
    };
    const pages = await walk('limit=10');
    expect(pages.map((page) => page.length)).toEqual([10, 10, 4]);
    expect(pages.flat()).toEqual(ordered.map((agent) => agent.name));
    const inactive = await walk('limit=3&status=inactive');
    expect(inactive.map((page) => page.length)).toEqual([3, 3, 2]);
    expect(inactive.flat()).toEqual(ordered.filter((agent) => agent.status === 'inactive').map((agent) => agent.name));
    expect((await request('GET', '/agents?limit=24', owner.headers)).headers['x-next-cursor']).toBeUndefined();

    const cursor = (await request('GET', '/agents?limit=10', owner.headers)).headers['x-next-cursor'];
    const foreign = await request('GET', `/agents?limit=100&cursor=${cursor}`, globex.headers);
    expect(foreign.json().every((agent: { organization_id: string }) => agent.organization_id === globex.organizationId)).toBe(
      true,
    );
    for (const query of ['?cursor=%2A', `?cursor=${Buffer.from('[1, 2]').toString('base64url')}`]) {
      expect((await request('GET', `/agents${query}`, owner.headers)).json()).toEqual({
        detail: [{ loc: ['query', 'cursor'], msg: 'cursor is not a nextCursor this list returned', type: 'value_error' }],
      });
    }
  });
});
