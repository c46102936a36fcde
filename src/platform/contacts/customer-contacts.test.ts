import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { bareArrayPage, expectCursorPagedList, idsInOrder, walkPages } from '../../../test/platform-list-pages.js';

type Headers = Record<string, string>;

describe.each(DIALECTS)('customer contacts on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let desk: TestTeam;
  let initech: { id: string; name: string };
  let hooli: { id: string; name: string };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId);
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DSK' });
    initech = (await request('POST', '/v1/accounts', { name: 'Initech', primaryDomain: 'initech.example' })).json();
    hooli = (await request('POST', '/v1/accounts', { name: 'Hooli', primaryDomain: 'hooli.example' })).json();
  });
  afterAll(() => harness.close());

  function request(method: string, url: string, payload?: object, headers: Headers = acme.headers) {
    return harness.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  }
  const create = async (payload: object, headers: Headers = acme.headers) => {
    const response = await request('POST', '/v1/accounts/contacts', payload, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const liveContacts = async () =>
    (
      await harness.db
        .selectFrom('customer_contacts')
        .select(['id', 'email', 'first_name', 'deleted_at'])
        .where('organization_id', '=', acme.organizationId)
        .orderBy('id')
        .execute()
    ).filter((row) => row.deleted_at === null);
  const links = async () => harness.db.selectFrom('account_contacts').selectAll().orderBy('account_id').execute();

  it('creates a contact: 201, bare, default contact type, accounts linked', async () => {
    const response = await request('POST', '/v1/accounts/contacts', {
      firstName: 'Peter',
      lastName: 'Gibbons',
      email: 'Peter@Initech.example',
      phoneNumber: '+1 415 555 0100',
      avatarUrl: 'https://cdn.example/peter.png',
      accountIds: [initech.id, hooli.id, initech.id],
      metadata: { source: 'import' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const contact = response.json();
    expect(contact).toEqual({
      id: expect.any(String),
      firstName: 'Peter',
      lastName: 'Gibbons',
      email: 'Peter@Initech.example',
      phoneNumber: '+1 415 555 0100',
      avatarUrl: 'https://cdn.example/peter.png',
      accounts: [
        { id: hooli.id, name: 'Hooli', primaryDomain: 'hooli.example' },
        { id: initech.id, name: 'Initech', primaryDomain: 'initech.example' },
      ],
      contactTypeId: expect.any(String),
      contactType: 'Customer',
      customFieldValues: [],
      metadata: { source: 'import' },
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    expect((await request('GET', `/v1/accounts/contacts/${contact.id}`)).json()).toEqual(contact);
  });

  it('contactType takes an id or a value; custom-field values are checked against contact fields', async () => {
    const lead = (await request('GET', '/v1/accounts/attributes?attribute=contact_type')).json()[1];
    expect((await create({ firstName: 'Lea', email: 'lea@x.example', contactType: lead.id })).contactType).toBe('Lead');
    expect((await create({ firstName: 'Pat', email: 'pat@x.example', contactType: 'PARTNER' })).contactType).toBe('Partner');
    const field = (
      await request('POST', '/v1/custom-field', { name: 'Shoe size', source: 'customer_contact', fieldType: 'integer' })
    ).json().data;
    const sized = await create({
      firstName: 'Sam',
      email: 'sam@x.example',
      customFieldValues: [{ fieldId: field.uid, value: '44' }],
    });
    expect(sized.customFieldValues).toEqual([{ fieldId: field.uid, value: 44 }]);
  });

  it('an email is unique per organization, case-insensitively (409), and free in another organization', async () => {
    await create({ firstName: 'Milton', email: 'milton@initech.example' });
    const before = await liveContacts();
    const clash = await request('POST', '/v1/accounts/contacts', { firstName: 'Other', email: 'MILTON@initech.example' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      statusCode: 409,
      message: 'Customer contact with this email already exists!',
      error: 'Conflict',
    });
    expect(await liveContacts()).toEqual(before);
    await create({ firstName: 'Milton', email: 'milton@initech.example' }, globex.headers);
  });

  it.each([
    [{ email: 'a@b.example' }, 'firstName is required'],
    [{ firstName: 'A' }, 'email is required'],
    [{ firstName: ' ', email: 'a@b.example' }, 'firstName must not be blank'],
    [{ firstName: 'A', email: 'not-an-email' }, 'email must be a valid email'],
    [{ firstName: 'A', email: 'a@b.example', phoneNumber: 'call me' }, 'phoneNumber has an invalid format'],
    [{ firstName: 'A', email: 'a@b.example', avatarUrl: 'javascript:alert(1)' }, 'avatarUrl must be a valid http-url'],
    [
      { firstName: 'A', email: 'a@b.example', contactType: 'Alien' },
      'contactType must name one of the contact_type values (by id or value): Customer, Lead, Partner',
    ],
    [
      { firstName: 'A', email: 'a@b.example', accountIds: ['01KAAAAAAAAAAAAAAAAAAAAAAA'] },
      'accountIds contains unknown account ids: 01KAAAAAAAAAAAAAAAAAAAAAAA',
    ],
    [{ firstName: 'A', email: 'a@b.example', nickname: 'a' }, 'nickname is not an accepted field'],
  ])('rejects %j with a 400, writing nothing', async (payload, message) => {
    const before = await liveContacts();
    const linksBefore = await links();
    const response = await request('POST', '/v1/accounts/contacts', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    expect(await liveContacts()).toEqual(before);
    expect(await links()).toEqual(linksBefore);
  });

  it('an account of another organization cannot be linked', async () => {
    const foreign = (await request('POST', '/v1/accounts', { name: 'F', primaryDomain: 'f.example' }, globex.headers)).json();
    const response = await request('POST', '/v1/accounts/contacts', {
      firstName: 'A',
      email: 'a@f.example',
      accountIds: [foreign.id],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(`accountIds contains unknown account ids: ${foreign.id}`);
  });

  it('updates the fields sent; accountIds replaces the links; a taken email is 409', async () => {
    const contact = await create({ firstName: 'Bill', email: 'bill@initech.example', accountIds: [initech.id] });
    harness.clock.advance(60_000);
    const response = await request('PUT', `/v1/accounts/contacts/${contact.id}`, {
      lastName: 'Lumbergh',
      accountIds: [hooli.id],
      contactType: 'Lead',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Bill',
      lastName: 'Lumbergh',
      email: 'bill@initech.example',
      contactType: 'Lead',
      accounts: [{ id: hooli.id, name: 'Hooli', primaryDomain: 'hooli.example' }],
      updatedAt: harness.clock.now().toISOString(),
    });
    const cleared = await request('PUT', `/v1/accounts/contacts/${contact.id}`, { accountIds: [] });
    expect(cleared.json().accounts).toEqual([]);
    const renamed = await request('PUT', `/v1/accounts/contacts/${contact.id}`, { email: 'BILL@initech.example' });
    expect(renamed.json().email).toBe('BILL@initech.example');
    const taken = await request('PUT', `/v1/accounts/contacts/${contact.id}`, { email: 'milton@initech.example' });
    expect(taken.statusCode).toBe(409);
    const bad = await request('PUT', `/v1/accounts/contacts/${contact.id}`, { firstName: 'Billy', accountIds: ['nope'] });
    expect(bad.statusCode).toBe(400);
    expect((await request('GET', `/v1/accounts/contacts/${contact.id}`)).json()).toMatchObject({
      firstName: 'Bill',
      accounts: [],
    });
  });

  it('lists contacts oldest first, by account, in 0-based pages; an unknown account is 404', async () => {
    const fresh = await makeOrganization(harness);
    const account = (
      await request('POST', '/v1/accounts', { name: 'Acct', primaryDomain: 'acct.example' }, fresh.headers)
    ).json();
    for (const name of ['Ann', 'Ben', 'Cat']) {
      await create(
        { firstName: name, email: `${name}@acct.example`, accountIds: name === 'Ben' ? [] : [account.id] },
        fresh.headers,
      );
    }
    const names = async (query: string) =>
      (await request('GET', `/v1/accounts/contacts${query}`, undefined, fresh.headers))
        .json()
        .map((contact: { firstName: string }) => contact.firstName);
    expect(await names('')).toEqual(['Ann', 'Ben', 'Cat']);
    expect(await names(`?accountId=${account.id}`)).toEqual(['Ann', 'Cat']);
    expect(await names(`?accountId=${account.id}&limit=1&page=1`)).toEqual(['Cat']);
    const unknown = await request('GET', `/v1/accounts/contacts?accountId=${initech.id}`, undefined, fresh.headers);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ statusCode: 404, message: 'Account not found!', error: 'Not Found' });
  });

  describe('delete (endpoint 8)', () => {
    it('answers exactly {statusCode: 200, message, data: null}; the contact leaves every read and its accounts', async () => {
      const contact = await create({ firstName: 'Joanna', email: 'joanna@chotchkies.example', accountIds: [initech.id] });
      const response = await request('DELETE', `/v1/accounts/contacts/${contact.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ statusCode: 200, message: 'Contact deleted successfully', data: null });
      expect(response.body).toBe('{"statusCode":200,"message":"Contact deleted successfully","data":null}');

      const gone = await request('GET', `/v1/accounts/contacts/${contact.id}`);
      expect(gone.json()).toEqual({ statusCode: 404, message: 'Contact not found', error: 'Not Found' });
      const all = (await request('GET', '/v1/accounts/contacts?limit=100')).json().map((row: { id: string }) => row.id);
      expect(all).not.toContain(contact.id);
      const ofAccount = (await request('GET', `/v1/accounts/contacts?accountId=${initech.id}&limit=100`)).json();
      expect(ofAccount.map((row: { id: string }) => row.id)).not.toContain(contact.id);
      expect((await links()).map((link) => link.customer_contact_id)).not.toContain(contact.id);
      // A second delete is a 404, and the email is free for a new contact.
      expect((await request('DELETE', `/v1/accounts/contacts/${contact.id}`)).json()).toEqual({
        statusCode: 404,
        message: 'Contact not found',
        error: 'Not Found',
      });
      expect((await create({ firstName: 'Joanna', email: 'joanna@chotchkies.example' })).id).not.toBe(contact.id);
    });

    it('keeps the history of tickets and comments that came from the contact', async () => {
      const ticket = (
        await request('POST', '/v1/tickets', { title: 'TPS reports', requestorEmail: 'tom@initech.example', teamId: desk.teamId })
      ).json().data;
      const comment = await request('POST', `/v1/tickets/${ticket.id}/comment`, {
        content: 'Did you get the memo?',
        customerEmail: 'tom@initech.example',
      });
      expect(comment.statusCode, comment.body).toBe(201);
      const contactId = ticket.customerContactId as string;
      const contact = (await request('GET', `/v1/accounts/contacts/${contactId}`)).json();
      expect(contact).toMatchObject({ email: 'tom@initech.example', firstName: 'tom', contactType: null });

      expect((await request('DELETE', `/v1/accounts/contacts/${contactId}`)).statusCode).toBe(200);
      const after = (await request('GET', `/v1/tickets/${ticket.id}`)).json().data;
      expect(after).toMatchObject({ customerContactId: contactId, customerContactEmail: 'tom@initech.example' });
      const comments = (await request('GET', `/v1/tickets/${ticket.id}/comments`)).json().data;
      expect(comments[0]).toMatchObject({
        customerContactId: contactId,
        customerContactEmail: 'tom@initech.example',
        author: 'tom',
      });
      // A new ticket from the same address makes a new contact.
      const again = (
        await request('POST', '/v1/tickets', { title: 'Again', requestorEmail: 'tom@initech.example', teamId: desk.teamId })
      ).json().data;
      expect(again.customerContactId).not.toBe(contactId);
    });

    it('a missing or blank id is the 400 "Contact ID is required!", deleting nothing', async () => {
      const before = await liveContacts();
      for (const url of ['/v1/accounts/contacts/', '/v1/accounts/contacts/%20', '/v1/accounts/contacts']) {
        const response = await request('DELETE', url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toEqual({ statusCode: 400, message: 'Contact ID is required!', error: 'Bad Request' });
      }
      expect(await liveContacts()).toEqual(before);
    });

    it('an unknown contact and another organization\'s are the 404 "Contact not found"', async () => {
      const foreign = await create({ firstName: 'F', email: 'f@globex.example' }, globex.headers);
      for (const id of [foreign.id, '01KAAAAAAAAAAAAAAAAAAAAAAA', 'not-an-id']) {
        const response = await request('DELETE', `/v1/accounts/contacts/${id}`);
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Contact not found', error: 'Not Found' });
        const read = await request('GET', `/v1/accounts/contacts/${id}`);
        expect(read.json()).toEqual({ statusCode: 404, message: 'Contact not found', error: 'Not Found' });
        expect((await request('PUT', `/v1/accounts/contacts/${id}`, { firstName: 'X' })).statusCode).toBe(404);
      }
      expect((await request('GET', `/v1/accounts/contacts/${foreign.id}`, undefined, globex.headers)).json().firstName).toBe('F');
    });

    it('any member of the organization may delete a contact; without a key it is 401', async () => {
      const contact = await create({ firstName: 'M', email: 'm@initech.example' });
      const anonymous = await request('DELETE', `/v1/accounts/contacts/${contact.id}`, undefined, {});
      expect(anonymous.json()).toEqual({ statusCode: 401, message: 'User is not authenticated!', error: 'Unauthorized' });
      expect((await request('DELETE', `/v1/accounts/contacts/${contact.id}`, undefined, member.headers)).statusCode).toBe(200);
    });
  });
});

describe.each(DIALECTS)('customer contact faults on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;

  beforeAll(async () => {
    // Keys are cached, so the request gets past authentication and fails in the route itself.
    harness = await buildTestApp(dialect, { env: { API_KEY_CACHE_SECONDS: '300' } });
    acme = await makeOrganization(harness);
    expect((await harness.app.inject({ url: '/v1/users/me', headers: acme.headers })).statusCode).toBe(200);
    await harness.db.destroy();
  });
  afterAll(() => harness.close().catch(() => undefined));

  it('a server fault in endpoint 8 is the 500 "Internal server error"', async () => {
    const response = await harness.app.inject({
      method: 'DELETE',
      url: '/v1/accounts/contacts/01KAAAAAAAAAAAAAAAAAAAAAAA',
      headers: acme.headers,
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' });
    // Elsewhere the platform's usual 500 stays.
    const other = await harness.app.inject({ url: '/v1/accounts/contacts/01KAAAAAAAAAAAAAAAAAAAAAAA', headers: acme.headers });
    expect(other.json()).toEqual({ statusCode: 500, message: 'Something went wrong!', error: 'Internal Server Error' });
  });
});

describe.each(DIALECTS)('contact list pages on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const request = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
    harness.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  const created = async (response: Awaited<ReturnType<typeof request>>) => {
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; createdAt: string };
  };
  const account = async (headers: Record<string, string>, domain: string) =>
    created(await request('POST', '/v1/accounts', headers, { name: domain, primaryDomain: domain }));
  const contact = async (headers: Record<string, string>, email: string, accountIds: string[] = []) =>
    created(await request('POST', '/v1/accounts/contacts', headers, { firstName: 'Pat', email, accountIds }));

  it("pages one account's contacts in the contacts' creation order, by cursor or by page, never another organization's", async () => {
    const initech = await account(acme.headers, 'initech.test');
    const hooli = await account(acme.headers, 'hooli.test');
    const members: { id: string; at: string }[] = [];
    for (let n = 0; n < 25; n++) {
      if (n % 3 === 0) {
        harness.clock.advance(1);
      }
      // Every other contact joins the account only later: the list keeps the contacts' own order.
      const row = await contact(acme.headers, `member${n}@initech.test`, n % 2 === 0 ? [initech.id, hooli.id] : []);
      members.push({ id: row.id, at: row.createdAt });
      await contact(acme.headers, `outsider${n}@hooli.test`, [hooli.id]);
    }
    harness.clock.advance(1);
    for (const [n, member] of members.entries()) {
      if (n % 2 === 1) {
        const linked = await request('PUT', `/v1/accounts/contacts/${member.id}`, acme.headers, { accountIds: [initech.id] });
        expect(linked.statusCode, linked.body).toBe(200);
      }
    }
    const leaver = await contact(acme.headers, 'leaver@initech.test', [initech.id]);
    expect((await request('DELETE', `/v1/accounts/contacts/${leaver.id}`, acme.headers)).statusCode).toBe(200);
    const globexAccount = await account(globex.headers, 'globex.test');
    const foreign = [await contact(globex.headers, 'a@globex.test', [globexAccount.id])];

    await expectCursorPagedList({
      app: harness.app,
      url: `/v1/accounts/contacts?accountId=${initech.id}&limit=10`,
      headers: acme.headers,
      read: bareArrayPage,
      expected: idsInOrder(members),
      pageNumbers: true,
      other: {
        url: `/v1/accounts/contacts?accountId=${globexAccount.id}&limit=10`,
        headers: globex.headers,
        ids: foreign.map((row) => row.id),
      },
    });
  });

  it("pages the organization's live contacts oldest first", async () => {
    const acmeContacts = (await walkPages(harness.app, '/v1/accounts/contacts?limit=10', acme.headers, bareArrayPage)).flat();
    const expected = await harness.db
      .selectFrom('customer_contacts')
      .select(['id', 'created_at'])
      .where('organization_id', '=', acme.organizationId)
      .where('deleted_at', 'is', null)
      .execute();
    expect(acmeContacts.map((row) => row.id)).toEqual(idsInOrder(expected.map((row) => ({ id: row.id, at: row.created_at }))));
    expect(acmeContacts).toHaveLength(50);
  });
});
