import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './dialects.js';
import { makeOrganization, makeTeam, type TestOrganization } from './factories.js';
import { buildTestApp, type TestApp } from './harness.js';

/** What a page would run or load if it rendered them as `href` or `src`. */
const REFUSED = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\tjavascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'ftp://x',
  '//cdn.example.com/a.png',
  'https://',
];
const GOOD = 'https://cdn.example.com/a.png';
const PLAIN_HTTP = 'http://cdn.example.com/b.png';

type Method = 'POST' | 'PUT' | 'PATCH';

interface UrlField {
  /** The field as an error names it. */
  field: string;
  /** `POST /v1/users`, for the test's name. */
  route: string;
  method: Method;
  url: () => string;
  body: (value: string) => object;
  /** The URL as stored, read from the successful response. */
  shown: (response: LightMyRequestResponse) => unknown;
}

let sequence = 0;
const unique = () => ++sequence;

describe.each(DIALECTS)('URLs that pages render are http(s) only, on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  const ids: Record<string, string> = {};

  const send = (method: Method | 'GET', url: string, payload?: object) =>
    harness.app.inject({ method, url, headers: acme.headers, ...(payload ? { payload } : {}) });

  /** Where a link attachment's download redirects: the URL it records. */
  const linkOf = async (attachmentId: string) => (await send('GET', `/v1/attachments/${attachmentId}`)).headers.location;

  async function created(method: Method, url: string, payload: object): Promise<LightMyRequestResponse> {
    const response = await send(method, url, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  }

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    const team = await makeTeam(harness, acme);
    const ticket = await created('POST', '/v1/tickets', { title: 'T', requestorEmail: 'pat@customer.test', teamId: team.teamId });
    ids.ticket = ticket.json().data.id;
    ids.user = (await created('POST', '/v1/users', { name: 'U', email: 'u@acme.test' })).json().data.id;
    ids.account = (await created('POST', '/v1/accounts', { name: 'A', primaryDomain: 'a.example' })).json().id;
    ids.contact = (await created('POST', '/v1/accounts/contacts', { firstName: 'C', email: 'c@acme.test' })).json().id;
    ids.note = (await created('POST', '/v1/accounts/notes', { accountId: ids.account, content: 'N' })).json().id;
    ids.helpCenter = (await created('POST', '/help-centers', { name: 'H' })).json().data._id;
    ids.collection = (await created('POST', '/collections', { helpCenterId: ids.helpCenter, name: 'C' })).json().data._id;
    ids.article = (await created('POST', '/articles', { title: 'A', collectionId: ids.collection })).json().data._id;
    ids.agent = (await created('POST', '/api/v1/agents', { name: 'Bot' })).json().id;
  });
  afterAll(() => harness.close());

  const platform: UrlField[] = [
    {
      field: 'avatarUrl',
      route: 'POST /v1/users',
      method: 'POST',
      url: () => '/v1/users',
      body: (value) => ({ name: 'U', email: `u${unique()}@acme.test`, avatarUrl: value }),
      shown: (response) => response.json().data.avatarUrl,
    },
    {
      field: 'avatarUrl',
      route: 'PATCH /v1/users/{userId}',
      method: 'PATCH',
      url: () => `/v1/users/${ids.user}`,
      body: (value) => ({ avatarUrl: value }),
      shown: (response) => response.json().data.avatarUrl,
    },
    {
      field: 'impersonatedUserAvatar',
      route: 'POST /v1/tickets/{id}/comment',
      method: 'POST',
      url: () => `/v1/tickets/${ids.ticket}/comment`,
      body: (value) => ({ content: 'x', impersonatedUserName: 'Bot', impersonatedUserAvatar: value }),
      shown: (response) => response.json().data.impersonatedUserAvatar,
    },
    {
      field: 'logo',
      route: 'POST /v1/accounts',
      method: 'POST',
      url: () => '/v1/accounts',
      body: (value) => ({ name: 'A', primaryDomain: `a${unique()}.example`, logo: value }),
      shown: (response) => response.json().logo,
    },
    {
      field: 'website',
      route: 'PUT /v1/accounts/{id}',
      method: 'PUT',
      url: () => `/v1/accounts/${ids.account}`,
      body: (value) => ({ website: value }),
      shown: (response) => response.json().website,
    },
    {
      field: 'avatarUrl',
      route: 'POST /v1/accounts/contacts',
      method: 'POST',
      url: () => '/v1/accounts/contacts',
      body: (value) => ({ firstName: 'C', email: `c${unique()}@acme.test`, avatarUrl: value }),
      shown: (response) => response.json().avatarUrl,
    },
    {
      field: 'avatarUrl',
      route: 'PUT /v1/accounts/contacts/{contactId}',
      method: 'PUT',
      url: () => `/v1/accounts/contacts/${ids.contact}`,
      body: (value) => ({ avatarUrl: value }),
      shown: (response) => response.json().avatarUrl,
    },
    {
      field: 'attachmentUrls.0',
      route: 'POST /v1/accounts/notes',
      method: 'POST',
      url: () => '/v1/accounts/notes',
      body: (value) => ({ accountId: ids.account, content: 'N', attachmentUrls: [value] }),
      shown: (response) => linkOf(response.json().attachments.at(-1)),
    },
    {
      field: 'attachmentUrls.1',
      route: 'PUT /v1/accounts/notes/{noteId}',
      method: 'PUT',
      url: () => `/v1/accounts/notes/${ids.note}`,
      body: (value) => ({ attachmentUrls: ['https://cdn.example.com/first.pdf', value] }),
      shown: (response) => linkOf(response.json().attachments.at(-1)),
    },
  ];

  const metaImage = (route: string, url: () => string, body: () => object): UrlField => ({
    field: 'meta.image',
    route,
    method: route.split(' ')[0] as Method,
    url,
    body: (value) => ({ ...body(), meta: { image: value } }),
    shown: (response) => response.json().data.meta.image,
  });
  const helpCenter: UrlField[] = [
    metaImage(
      'POST /help-centers',
      () => '/help-centers',
      () => ({ name: `H${unique()}` }),
    ),
    metaImage(
      'PATCH /help-centers/{id}',
      () => `/help-centers/${ids.helpCenter}`,
      () => ({}),
    ),
    metaImage(
      'POST /collections',
      () => '/collections',
      () => ({ helpCenterId: ids.helpCenter, name: `C${unique()}` }),
    ),
    metaImage(
      'PATCH /collections/{id}',
      () => `/collections/${ids.collection}`,
      () => ({}),
    ),
    metaImage(
      'POST /articles',
      () => '/articles',
      () => ({ title: `A${unique()}`, collectionId: ids.collection }),
    ),
    metaImage(
      'PATCH /articles/{id}',
      () => `/articles/${ids.article}`,
      () => ({}),
    ),
  ];

  const agentStudio: UrlField[] = [
    {
      field: 'avatar_url',
      route: 'POST /api/v1/agents',
      method: 'POST',
      url: () => '/api/v1/agents',
      body: (value) => ({ name: 'Bot', avatar_url: value }),
      shown: (response) => response.json().avatar_url,
    },
    {
      field: 'avatar_url',
      route: 'PUT /api/v1/agents/{id}',
      method: 'PUT',
      url: () => `/api/v1/agents/${ids.agent}`,
      body: (value) => ({ avatar_url: value }),
      shown: (response) => response.json().avatar_url,
    },
  ];

  const named = (cases: UrlField[]) => cases.map((case_) => [`${case_.route} ${case_.field}`, case_] as const);

  describe.each(named(platform))('platform: %s', (_, case_) => {
    it.each(REFUSED)('refuses %j with the platform 400 naming the field', async (value) => {
      const response = await send(case_.method, case_.url(), case_.body(value));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        statusCode: 400,
        message: `${case_.field} must be a valid http-url`,
        error: 'Bad Request',
      });
    });

    it('takes an https or http URL', async () => {
      for (const value of [GOOD, PLAIN_HTTP]) {
        const response = await send(case_.method, case_.url(), case_.body(value));
        expect(response.statusCode, response.body).toBeLessThan(300);
        expect(await case_.shown(response)).toBe(value);
      }
    });
  });

  describe.each(named(helpCenter))('help center: %s', (_, case_) => {
    it.each(REFUSED)('refuses %j with the help-center 400 naming the field', async (value) => {
      const response = await send(case_.method, case_.url(), case_.body(value));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'meta.image must be a valid http-url', statusCode: 400 });
    });

    it('takes an https URL', async () => {
      const response = await send(case_.method, case_.url(), case_.body(GOOD));
      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(await case_.shown(response)).toBe(GOOD);
    });
  });

  describe.each(named(agentStudio))('agent studio: %s', (_, case_) => {
    it.each(REFUSED)('refuses %j with the agent-studio 422 located at the field', async (value) => {
      const response = await send(case_.method, case_.url(), case_.body(value));
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          { loc: ['body', case_.field], msg: 'Input should be a valid URL, with an http or https scheme', type: 'url_parsing' },
        ],
      });
    });

    it('takes an https URL', async () => {
      const response = await send(case_.method, case_.url(), case_.body(GOOD));
      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(await case_.shown(response)).toBe(GOOD);
    });
  });

  it('a refused URL changes nothing that was stored', async () => {
    await created('PATCH', `/v1/users/${ids.user}`, { avatarUrl: GOOD });
    expect((await send('PATCH', `/v1/users/${ids.user}`, { avatarUrl: 'javascript:alert(1)', name: 'Renamed' })).statusCode).toBe(
      400,
    );
    expect((await send('GET', `/v1/users/${ids.user}`)).json().data).toMatchObject({ name: 'U', avatarUrl: GOOD });
  });
});
