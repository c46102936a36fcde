import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { startModelServer, type TestModelServer } from '../../../test/model-server.js';

type Headers = { 'x-api-key': string };
const UNKNOWN = '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c';
const SECRET = 'sk-test-secret-value-1234';

describe.each(DIALECTS)('model providers on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let model: TestModelServer;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId);
    model = await startModelServer();
  });
  afterAll(async () => {
    await harness?.close();
    await model?.close();
  });
  beforeEach(() => model.reset());

  const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Headers = acme.headers) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  let sequence = 0;
  const create = async (overrides: object = {}, headers: Headers = acme.headers) => {
    const response = await request(
      'POST',
      '/model-providers',
      {
        name: `Local ${++sequence}`,
        kind: 'openai_compatible',
        base_url: model.baseUrl,
        api_key: SECRET,
        default_model: 'small-1',
        ...overrides,
      },
      headers,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const providerCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('model_providers')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates a provider: 200, its shape, the key sealed at rest and never returned', async () => {
    const response = await request('POST', '/model-providers', {
      name: 'Ollama',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: SECRET,
      default_model: 'llama3.2',
      model_prices: { 'llama3.2': { input_per_million_tokens: 0.5, output_per_million_tokens: 1.5 } },
    });
    expect(response.statusCode).toBe(200);
    const provider = response.json();
    expect(provider).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organization_id: acme.organizationId,
      name: 'Ollama',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      default_model: 'llama3.2',
      model_prices: { 'llama3.2': { input_per_million_tokens: 0.5, output_per_million_tokens: 1.5 } },
      has_api_key: true,
      created_by: acme.userId,
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
    });
    expect(response.body).not.toContain(SECRET);
    for (const url of ['/model-providers', `/model-providers/${provider.id}`]) {
      const read = await request('GET', url, undefined, member.headers);
      expect(read.statusCode).toBe(200);
      expect(read.body).not.toContain(SECRET);
    }
    const stored = await harness.db
      .selectFrom('model_providers')
      .select('api_key_encrypted')
      .where('id', '=', provider.id)
      .executeTakeFirstOrThrow();
    expect(stored.api_key_encrypted).toMatch(/^[\w-]{8}:/);
    expect(stored.api_key_encrypted).not.toContain(SECRET);
  });

  it.each([
    [{ name: '' }, ['body', 'name'], 'string_too_short'],
    [{ name: 'x'.repeat(101) }, ['body', 'name'], 'string_too_long'],
    [{ kind: 'gemini' }, ['body', 'kind'], 'enum'],
    [{ kind: undefined }, ['body', 'kind'], 'missing'],
    [{ base_url: 'ftp://models.example.com/v1' }, ['body', 'base_url'], 'url_parsing'],
    [{ base_url: 'not a url' }, ['body', 'base_url'], 'url_parsing'],
    [{ base_url: 'http://models.example.com/v1' }, ['body', 'base_url'], 'value_error'],
    [{ base_url: 'https://10.0.0.7/v1' }, ['body', 'base_url'], 'value_error'],
    [{ base_url: 'https://169.254.169.254/latest' }, ['body', 'base_url'], 'value_error'],
    [{ base_url: 'https://user:pw@models.example.com/v1' }, ['body', 'base_url'], 'value_error'],
    [{ default_model: '' }, ['body', 'default_model'], 'string_too_short'],
    [{ default_model: undefined }, ['body', 'default_model'], 'missing'],
    [{ api_key: '' }, ['body', 'api_key'], 'string_too_short'],
    [{ api_key: 42 }, ['body', 'api_key'], 'string_type'],
    [
      { model_prices: { m: { input_per_million_tokens: -1, output_per_million_tokens: 1 } } },
      ['body', 'model_prices', 'm', 'input_per_million_tokens'],
      'greater_than_equal',
    ],
    [
      { model_prices: { m: { input_per_million_tokens: 1 } } },
      ['body', 'model_prices', 'm', 'output_per_million_tokens'],
      'missing',
    ],
    [{ model_prices: [] }, ['body', 'model_prices'], 'dict_type'],
  ])('refuses %j: 422 at %j, nothing written', async (change, loc, type) => {
    const before = await providerCount();
    const body: Record<string, unknown> = {
      name: 'Bad',
      kind: 'openai_compatible',
      base_url: 'https://models.example.com/v1',
      default_model: 'm',
      ...change,
    };
    for (const key of Object.keys(body)) {
      if (body[key] === undefined) {
        delete body[key];
      }
    }
    const response = await request('POST', '/model-providers', body);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, type })]));
    expect(await providerCount()).toBe(before);
  });

  it('a name is unique in the organization (409), free in another', async () => {
    await create({ name: 'Shared name' });
    const clash = await request('POST', '/model-providers', {
      name: 'Shared name',
      kind: 'anthropic',
      base_url: 'https://api.anthropic.com/v1',
      default_model: 'claude',
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ detail: 'A model provider with this name already exists' });
    await create({ name: 'Shared name', base_url: 'https://api.example.com/v1' }, globex.headers);
  });

  it('members read but do not manage: 403 on every write, nothing changed', async () => {
    const provider = await create();
    const denied = { detail: 'Only organization admins manage model providers' };
    const attempts = [
      request(
        'POST',
        '/model-providers',
        { name: 'M', kind: 'anthropic', base_url: 'https://api.anthropic.com/v1', default_model: 'c' },
        member.headers,
      ),
      request('PATCH', `/model-providers/${provider.id}`, { name: 'Renamed' }, member.headers),
      request('DELETE', `/model-providers/${provider.id}`, undefined, member.headers),
      request('POST', `/model-providers/${provider.id}/test`, {}, member.headers),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(denied);
    }
    expect((await request('GET', `/model-providers/${provider.id}`)).json()).toEqual(provider);
    expect(model.requests).toHaveLength(0);
  });

  it('PATCH changes what is sent; a new key replaces the old, null removes it; the URL is checked again', async () => {
    const provider = await create();
    harness.clock.advance(1000);
    const renamed = await request('PATCH', `/model-providers/${provider.id}`, {
      name: 'Renamed',
      default_model: 'big-2',
      api_key: 'sk-new-key-5678',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({
      ...provider,
      name: 'Renamed',
      default_model: 'big-2',
      updated_at: harness.clock.now().toISOString(),
    });
    expect(renamed.body).not.toContain('sk-new-key');
    const cleared = await request('PATCH', `/model-providers/${provider.id}`, { api_key: null });
    expect(cleared.json().has_api_key).toBe(false);
    const bad = await request('PATCH', `/model-providers/${provider.id}`, { base_url: 'https://127.0.0.2/v1' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'base_url']);
    expect((await request('GET', `/model-providers/${provider.id}`)).json().base_url).toBe(model.baseUrl);
  });

  it('a new base_url needs the key again (or null): 422 naming api_key, nothing written', async () => {
    const provider = await create();
    const stored = () =>
      harness.db
        .selectFrom('model_providers')
        .select(['base_url', 'api_key_encrypted', 'updated_at'])
        .where('id', '=', provider.id)
        .executeTakeFirstOrThrow();
    const before = await stored();
    const elsewhere = 'http://127.0.0.1:9/v1';
    const moved = await request('PATCH', `/model-providers/${provider.id}`, { base_url: elsewhere, name: 'Moved' });
    expect(moved.statusCode).toBe(422);
    expect(moved.json()).toEqual({
      detail: [
        {
          loc: ['body', 'api_key'],
          msg: 'Value error, api_key is required for a new base_url (null removes the stored key)',
          type: 'value_error',
        },
      ],
    });
    expect(await stored()).toEqual(before);
    expect((await request('GET', `/model-providers/${provider.id}`)).json().name).toBe(provider.name);

    // The same URL sent again is no move; a new URL with its key, or with null, is.
    expect((await request('PATCH', `/model-providers/${provider.id}`, { base_url: model.baseUrl })).statusCode).toBe(200);
    const rekeyed = await request('PATCH', `/model-providers/${provider.id}`, { base_url: elsewhere, api_key: 'sk-other-key' });
    expect(rekeyed.statusCode, rekeyed.body).toBe(200);
    expect(rekeyed.json()).toMatchObject({ base_url: elsewhere, has_api_key: true });
    expect((await stored()).api_key_encrypted).not.toBe(before.api_key_encrypted);
    const keyless = await request('PATCH', `/model-providers/${provider.id}`, { base_url: model.baseUrl, api_key: null });
    expect(keyless.json()).toMatchObject({ base_url: model.baseUrl, has_api_key: false });
    // Without a stored key there is nothing to follow the URL.
    const again = await request('PATCH', `/model-providers/${provider.id}`, { base_url: elsewhere });
    expect(again.json()).toMatchObject({ base_url: elsewhere, has_api_key: false });
  });

  it('another organization’s provider is a 404 everywhere, like a missing one', async () => {
    const provider = await create();
    const notFound = { detail: 'Model provider not found' };
    for (const id of [provider.id, UNKNOWN]) {
      for (const [method, url, body] of [
        ['GET', `/model-providers/${id}`, undefined],
        ['PATCH', `/model-providers/${id}`, { name: 'Mine now' }],
        ['DELETE', `/model-providers/${id}`, undefined],
        ['POST', `/model-providers/${id}/test`, {}],
      ] as const) {
        const response = await request(method, url, body, globex.headers);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual(notFound);
      }
    }
    expect((await request('GET', '/model-providers', undefined, globex.headers)).body).not.toContain(provider.id);
    expect((await request('GET', `/model-providers/${provider.id}`)).json()).toEqual(provider);
  });

  it('lists in creation order, paged by cursor', async () => {
    const org = await makeOrganization(harness);
    const ids = [];
    for (let n = 0; n < 3; n++) {
      harness.clock.advance(1000);
      ids.push((await create({}, org.headers)).id);
    }
    const first = await request('GET', '/model-providers?limit=2', undefined, org.headers);
    expect(first.json().map((p: { id: string }) => p.id)).toEqual(ids.slice(0, 2));
    const cursor = first.headers['x-next-cursor'];
    const second = await request('GET', `/model-providers?limit=2&cursor=${cursor}`, undefined, org.headers);
    expect(second.json().map((p: { id: string }) => p.id)).toEqual(ids.slice(2));
  });

  it('deletes: 200, then 404', async () => {
    const provider = await create();
    const removed = await request('DELETE', `/model-providers/${provider.id}`);
    expect(removed.json()).toEqual({ status: 'success', message: 'Model provider deleted successfully' });
    expect((await request('GET', `/model-providers/${provider.id}`)).statusCode).toBe(404);
    expect((await request('DELETE', `/model-providers/${provider.id}`)).statusCode).toBe(404);
  });

  it('test: one tiny non-streamed completion with the stored key; latency and reply', async () => {
    const provider = await create();
    model.script({ text: 'ok' });
    const response = await request('POST', `/model-providers/${provider.id}/test`, {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, model: 'small-1', latency_ms: expect.any(Number), reply: 'ok', error: null });
    expect(model.requests).toHaveLength(1);
    const [sent] = model.requests;
    expect(sent?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(sent?.body.stream).toBeFalsy();
    expect(sent?.body.model).toBe('small-1');
    model.script({ text: 'ok' });
    const other = await request('POST', `/model-providers/${provider.id}/test`, { model: 'other-model' });
    expect(other.json()).toMatchObject({ ok: true, model: 'other-model' });
  });

  it('test: the provider’s error, worded with its status and message; garbage and an unreachable host explained', async () => {
    const provider = await create();
    model.script({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    const refused = (await request('POST', `/model-providers/${provider.id}/test`, {})).json();
    expect(refused).toMatchObject({ ok: false, reply: null });
    expect(refused.error).toBe('The model provider refused the credentials (HTTP 401): Incorrect API key provided');
    model.script({ kind: 'error', status: 404, message: "The model 'nope' does not exist" });
    const unknown = (await request('POST', `/model-providers/${provider.id}/test`, { model: 'nope' })).json();
    expect(unknown.error).toBe("The model provider does not know the model or path (HTTP 404): The model 'nope' does not exist");
    model.script({ kind: 'garbage', body: '<html>hello</html>' });
    const garbage = (await request('POST', `/model-providers/${provider.id}/test`, {})).json();
    expect(garbage.error).toBe('The model provider answered something that is not a valid completion');
    const closed = await startModelServer();
    await closed.close();
    const down = await create({ base_url: closed.baseUrl });
    const unreachable = (await request('POST', `/model-providers/${down.id}/test`, {})).json();
    expect(unreachable.error).toBe('The model provider could not be reached: connection refused');
  });

  it('test: a provider URL the outbound policy refuses is never contacted', async () => {
    const strict = await buildTestApp(dialect);
    try {
      const org = await makeOrganization(strict);
      // Stored before the policy tightened: the guard still refuses it at connect time.
      const id = strict.ids.uuid();
      await strict.db
        .insertInto('model_providers')
        .values({
          id,
          organization_id: org.organizationId,
          created_by_id: org.userId,
          name: 'Old',
          kind: 'openai_compatible',
          base_url: model.baseUrl,
          api_key_encrypted: null,
          default_model: 'm',
          model_prices: null,
          created_at: TEST_NOW,
          updated_at: TEST_NOW,
        })
        .execute();
      const response = await strict.app.inject({
        method: 'POST',
        url: `/api/v1/model-providers/${id}/test`,
        headers: org.headers,
        payload: {},
      });
      expect(response.json().error).toMatch(/refused by the outbound policy/);
      expect(model.requests).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
