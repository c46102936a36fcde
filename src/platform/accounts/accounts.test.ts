import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { bareArrayPage, expectCursorPagedList, idsInOrder } from '../../../test/platform-list-pages.js';

type Headers = Record<string, string>;

describe.each(DIALECTS)('accounts on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let owner: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    owner = await makeUser(harness, acme.organizationId, { name: 'Olga Owner', email: 'olga@acme.test' });
  });
  afterAll(() => harness.close());

  const request = (method: string, url: string, payload?: object, headers: Headers = acme.headers) =>
    harness.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  const create = async (payload: object, headers: Headers = acme.headers) => {
    const response = await request('POST', '/v1/accounts', payload, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const attributeValue = async (attribute: string, value: string, headers: Headers = acme.headers) => {
    const values = (await request('GET', `/v1/accounts/attributes?attribute=${attribute}`, undefined, headers)).json();
    return values.find((entry: { value: string }) => entry.value === value) as { id: string; value: string };
  };
  const accountCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const customField = async (payload: object) => {
    const response = await request('POST', '/v1/custom-field', payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { uid: string };
  };

  it('creates an account: 201, bare, domain lower-cased, attribute defaults filled in', async () => {
    const response = await request('POST', '/v1/accounts', { name: ' Initech ', primaryDomain: 'Initech.COM' });
    expect(response.statusCode).toBe(201);
    const account = response.json();
    const prospect = await attributeValue('account_status', 'Prospect');
    expect(account).toEqual({
      id: expect.any(String),
      name: 'Initech',
      description: null,
      source: null,
      logo: null,
      primaryDomain: 'initech.com',
      secondaryDomain: null,
      website: null,
      statusId: prospect.id,
      status: 'Prospect',
      statusConfiguration: { id: prospect.id, name: 'Prospect', icon: null, color: '#3B82F6' },
      classificationId: expect.any(String),
      classification: 'Customer',
      classificationConfiguration: expect.objectContaining({ name: 'Customer' }),
      healthId: expect.any(String),
      health: 'Healthy',
      healthConfiguration: expect.objectContaining({ name: 'Healthy', color: '#22C55E' }),
      industryId: expect.any(String),
      industry: 'Other',
      industryConfiguration: expect.objectContaining({ name: 'Other' }),
      accountOwner: null,
      accountOwnerId: null,
      accountOwnerEmail: null,
      accountOwnerAvatarUrl: null,
      annualRevenue: null,
      employees: null,
      billingAddress: null,
      shippingAddress: null,
      customFieldValues: [],
      metadata: null,
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    expect((await request('GET', `/v1/accounts/${account.id}`)).json()).toEqual(account);
  });

  it('takes every optional field; attribute fields accept an id or a value (any case)', async () => {
    const active = await attributeValue('account_status', 'Active');
    const account = await create({
      name: 'Globex Corporation',
      primaryDomain: 'globex.example',
      description: 'Cypress Creek',
      source: 'hubspot',
      logo: 'https://cdn.globex.example/logo.png',
      secondaryDomain: 'Globex.io',
      website: 'https://globex.example',
      status: active.id,
      classification: 'partner',
      health: 'At risk',
      industry: 'TECHNOLOGY',
      accountOwnerId: owner.userId,
      annualRevenue: 1250000.5,
      employees: 420,
      billingAddress: '1 Cypress Creek',
      shippingAddress: '2 Cypress Creek',
      metadata: { tier: 'gold', tags: ['a'] },
    });
    expect(account).toMatchObject({
      description: 'Cypress Creek',
      source: 'hubspot',
      logo: 'https://cdn.globex.example/logo.png',
      secondaryDomain: 'globex.io',
      website: 'https://globex.example',
      statusId: active.id,
      status: 'Active',
      classification: 'Partner',
      health: 'At risk',
      healthConfiguration: { name: 'At risk', color: '#F59E0B' },
      industry: 'Technology',
      accountOwner: 'Olga Owner',
      accountOwnerId: owner.userId,
      accountOwnerEmail: 'olga@acme.test',
      accountOwnerAvatarUrl: null,
      annualRevenue: 1250000.5,
      employees: 420,
      billingAddress: '1 Cypress Creek',
      shippingAddress: '2 Cypress Creek',
      metadata: { tier: 'gold', tags: ['a'] },
    });
  });

  it('primaryDomain is unique per organization, case-insensitively (409), free elsewhere and after a delete', async () => {
    const first = await create({ name: 'Hooli', primaryDomain: 'hooli.example' });
    const before = await accountCount();
    const clash = await request('POST', '/v1/accounts', { name: 'Hooli again', primaryDomain: 'HOOLI.example' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      statusCode: 409,
      message: 'Account with this primary domain already exists!',
      error: 'Conflict',
    });
    expect(await accountCount()).toBe(before);
    await create({ name: 'Hooli', primaryDomain: 'hooli.example' }, globex.headers);

    const other = await create({ name: 'Pied Piper', primaryDomain: 'piedpiper.example' });
    const moved = await request('PUT', `/v1/accounts/${other.id}`, { primaryDomain: 'Hooli.Example' });
    expect(moved.statusCode).toBe(409);

    const deleted = await request('DELETE', `/v1/accounts/${first.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ statusCode: 200, message: 'Account deleted successfully', data: null });
    await create({ name: 'Hooli reborn', primaryDomain: 'hooli.example' });
  });

  it.each([
    [{ primaryDomain: 'a.example' }, 'name is required'],
    [{ name: 'A' }, 'primaryDomain is required'],
    [{ name: '  ', primaryDomain: 'a.example' }, 'name must not be blank'],
    [{ name: 'A', primaryDomain: 'https://a.example' }, 'primaryDomain has an invalid format'],
    [{ name: 'A', primaryDomain: 'localhost' }, 'primaryDomain has an invalid format'],
    [{ name: 'A', primaryDomain: 'a.example', website: 'ftp://a.example' }, 'website must be a valid http-url'],
    [{ name: 'A', primaryDomain: 'a.example', logo: 'not a url' }, 'logo must be a valid http-url'],
    [{ name: 'A', primaryDomain: 'a.example', employees: -1 }, 'employees must be at least 0'],
    [{ name: 'A', primaryDomain: 'a.example', annualRevenue: '10' }, 'annualRevenue must be a number'],
    [{ name: 'A', primaryDomain: 'a.example', owner: 'me' }, 'owner is not an accepted field'],
    [
      { name: 'A', primaryDomain: 'a.example', status: 'Bankrupt' },
      'status must name one of the account_status values (by id or value): Prospect, Active, Inactive, Churned',
    ],
    [
      { name: 'A', primaryDomain: 'a.example', industry: '01KAAAAAAAAAAAAAAAAAAAAAAA' },
      'industry must name one of the account_industry values (by id or value): Other, Technology, Financial services, Healthcare, Retail, Manufacturing, Education',
    ],
    [{ name: 'A', primaryDomain: 'a.example', accountOwnerId: 'nobody' }, 'accountOwnerId must be a user of the organization'],
    [
      { name: 'A', primaryDomain: 'a.example', customFieldValues: [{ fieldId: 'nope', value: 'x' }] },
      'customFieldValues.0.fieldId is not a custom field of the organization: nope',
    ],
  ])('rejects %j with a 400, writing nothing', async (payload, message) => {
    const before = await accountCount();
    const response = await request('POST', '/v1/accounts', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    expect(await accountCount()).toBe(before);
  });

  it('an attribute value of another organization is unknown here; an owner of another organization too', async () => {
    const foreignStatus = await attributeValue('account_status', 'Active', globex.headers);
    const response = await request('POST', '/v1/accounts', { name: 'A', primaryDomain: 'a.example', status: foreignStatus.id });
    expect(response.statusCode).toBe(400);
    const foreignOwner = await request('POST', '/v1/accounts', {
      name: 'A',
      primaryDomain: 'a.example',
      accountOwnerId: globex.userId,
    });
    expect(foreignOwner.json().message).toBe('accountOwnerId must be a user of the organization');
  });

  it('custom-field values are checked against account fields and merged by fieldId on update', async () => {
    const plan = await customField({
      name: 'Plan',
      source: 'account',
      fieldType: 'single_choice',
      options: [{ value: 'Gold' }, { value: 'Silver' }],
    });
    const seats = await customField({ name: 'Seats', source: 'account', fieldType: 'integer' });
    const ticketField = await customField({ name: 'Ticket only', source: 'ticket', fieldType: 'single_line' });
    const account = await create({
      name: 'Umbrella',
      primaryDomain: 'umbrella.example',
      customFieldValues: [
        { fieldId: plan.uid, value: 'gold' },
        { fieldId: seats.uid, value: '12' },
      ],
    });
    expect(account.customFieldValues).toEqual([
      { fieldId: plan.uid, value: 'Gold' },
      { fieldId: seats.uid, value: 12 },
    ]);
    const updated = await request('PUT', `/v1/accounts/${account.id}`, {
      customFieldValues: [
        { fieldId: seats.uid, value: 20 },
        { fieldId: plan.uid, value: null },
      ],
    });
    expect(updated.json().customFieldValues).toEqual([{ fieldId: seats.uid, value: 20 }]);

    const wrong = await request('PUT', `/v1/accounts/${account.id}`, {
      customFieldValues: [{ fieldId: ticketField.uid, value: 'x' }],
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(
      'customFieldValues.0.fieldId is a custom field of ticket records, not of account records (custom field "Ticket only")',
    );
    const badValue = await request('PUT', `/v1/accounts/${account.id}`, {
      customFieldValues: [{ fieldId: seats.uid, value: 'many' }],
    });
    expect(badValue.json().message).toBe('customFieldValues.0.value must be a whole number (custom field "Seats")');
    expect((await request('GET', `/v1/accounts/${account.id}`)).json().customFieldValues).toEqual([
      { fieldId: seats.uid, value: 20 },
    ]);
  });

  it('updates only the fields sent; attribute fields by id or value; nothing changes on a bad field', async () => {
    const account = await create({ name: 'Stark', primaryDomain: 'stark.example', description: 'Arc reactors', employees: 5 });
    harness.clock.advance(60_000);
    const response = await request('PUT', `/v1/accounts/${account.id}`, {
      name: 'Stark Industries',
      status: 'churned',
      accountOwnerId: owner.userId,
      description: null,
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json();
    expect(updated).toMatchObject({
      name: 'Stark Industries',
      status: 'Churned',
      accountOwnerId: owner.userId,
      description: null,
      employees: 5,
      primaryDomain: 'stark.example',
      classification: 'Customer',
      createdAt: TEST_NOW,
      updatedAt: harness.clock.now().toISOString(),
    });
    const bad = await request('PUT', `/v1/accounts/${account.id}`, { name: 'Mangled', health: 'Zombie' });
    expect(bad.statusCode).toBe(400);
    expect((await request('GET', `/v1/accounts/${account.id}`)).json()).toEqual(updated);
  });

  it('lists live accounts oldest first with 0-based pages', async () => {
    const fresh = await makeOrganization(harness);
    const names = ['One', 'Two', 'Three'];
    for (const [index, name] of names.entries()) {
      await create({ name, primaryDomain: `n${index}.example` }, fresh.headers);
    }
    const page = async (query: string) =>
      (await request('GET', `/v1/accounts${query}`, undefined, fresh.headers))
        .json()
        .map((account: { name: string }) => account.name);
    expect(await page('')).toEqual(names);
    expect(await page('?limit=2')).toEqual(['One', 'Two']);
    expect(await page('?limit=2&page=1')).toEqual(['Three']);
    const bad = await request('GET', '/v1/accounts?page=-1', undefined, fresh.headers);
    expect(bad.json()).toEqual({ statusCode: 400, message: 'page must be at least 0', error: 'Bad Request' });
  });

  it("another organization's account, an unknown and a deleted one are 404; a blank id is 400", async () => {
    const foreign = await create({ name: 'Foreign', primaryDomain: 'foreign.example' }, globex.headers);
    const deleted = await create({ name: 'Deleted', primaryDomain: 'deleted.example' });
    await request('DELETE', `/v1/accounts/${deleted.id}`);
    for (const id of [foreign.id, deleted.id, '01KAAAAAAAAAAAAAAAAAAAAAAA', 'nope']) {
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', { name: 'Mine' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await request(method, `/v1/accounts/${id}`, payload);
        expect(response.statusCode, `${method} ${id}`).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Account not found!', error: 'Not Found' });
      }
    }
    expect((await request('GET', `/v1/accounts/${foreign.id}`, undefined, globex.headers)).json().name).toBe('Foreign');
    const listed = (await request('GET', '/v1/accounts?limit=100')).json().map((account: { id: string }) => account.id);
    expect(listed).not.toContain(deleted.id);
    expect(listed).not.toContain(foreign.id);
    for (const url of ['/v1/accounts/', '/v1/accounts/%20']) {
      const response = await request('GET', url);
      expect(response.json(), url).toEqual({ statusCode: 400, message: 'Account ID is required!', error: 'Bad Request' });
    }
  });

  it('the static /accounts/attributes, /contacts and /notes routes are not taken for an account id', async () => {
    expect((await request('GET', '/v1/accounts/attributes?attribute=note_type')).statusCode).toBe(200);
    expect(Array.isArray((await request('GET', '/v1/accounts/contacts')).json())).toBe(true);
    const notes = await request('GET', '/v1/accounts/notes');
    expect(notes.json()).toEqual({ statusCode: 400, message: 'accountId is required', error: 'Bad Request' });
  });
});

describe.each(DIALECTS)('account list pages on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const create = async (headers: Headers, n: number) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/accounts',
      headers,
      payload: { name: `Account ${n}`, primaryDomain: `account${n}-${headers['x-api-key']?.slice(4, 12)}.test` },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; createdAt: string };
  };

  it('pages live accounts oldest first by cursor or by page, each once, never another organization’s', async () => {
    const created: { id: string; at: string }[] = [];
    for (let n = 0; n < 26; n++) {
      // Three accounts per millisecond: the id breaks the ties.
      if (n % 3 === 0) {
        harness.clock.advance(1);
      }
      const account = await create(acme.headers, n);
      created.push({ id: account.id, at: account.createdAt });
    }
    const deleted = created.pop();
    const removed = await harness.app.inject({ method: 'DELETE', url: `/v1/accounts/${deleted?.id}`, headers: acme.headers });
    expect(removed.statusCode, removed.body).toBe(200);
    const foreign = [await create(globex.headers, 100), await create(globex.headers, 101)];

    await expectCursorPagedList({
      app: harness.app,
      url: '/v1/accounts?limit=10',
      headers: acme.headers,
      read: bareArrayPage,
      expected: idsInOrder(created),
      pageNumbers: true,
      other: { url: '/v1/accounts?limit=10', headers: globex.headers, ids: foreign.map((account) => account.id) },
    });
  });
});
