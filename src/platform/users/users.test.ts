import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { envelopePage, expectCursorPagedList, idsInOrder } from '../../../test/platform-list-pages.js';

describe.each(DIALECTS)('GET /v1/users/me on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme', adminEmail: 'ada@acme.test' });
    globex = await makeOrganization(harness, { name: 'Globex', adminEmail: 'ada@globex.test' });
  });
  afterAll(() => harness.close());

  it("returns the caller's user and organization in the platform envelope", async () => {
    const response = await harness.app.inject({ url: '/v1/users/me', headers: acme.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: true,
      message: 'Success',
      timestamp: TEST_NOW,
      data: {
        user: {
          id: acme.userId,
          name: expect.any(String),
          email: 'ada@acme.test',
          userType: 'ORG_ADMIN',
          avatarUrl: null,
          status: 'offline',
          capacity: null,
          timezone: null,
          disabled: false,
          organizationId: acme.organizationId,
          createdAt: TEST_NOW,
          updatedAt: TEST_NOW,
        },
        organization: { id: acme.organizationId, name: 'Acme', createdAt: TEST_NOW, updatedAt: TEST_NOW },
      },
    });
    expect(acme.userId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('answers for the key of a member, scoped to its own organization', async () => {
    const member = await makeUser(harness, globex.organizationId, { email: 'bob@globex.test' });
    const body = (await harness.app.inject({ url: '/v1/users/me', headers: member.headers })).json();
    expect(body.data.user).toMatchObject({ id: member.userId, userType: 'ORG_MEMBER', organizationId: globex.organizationId });
    expect(body.data.organization.name).toBe('Globex');
  });

  it('echoes a sane x-request-id and generates one otherwise', async () => {
    const echoed = await harness.app.inject({ url: '/v1/users/me', headers: { ...acme.headers, 'x-request-id': 'trace-123' } });
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const generated = await harness.app.inject({ url: '/v1/users/me', headers: { ...acme.headers, 'x-request-id': 'bad id\n' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe.each(DIALECTS)('users and their API keys on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId, { email: 'member@acme.test' });
  });
  afterAll(() => harness.close());

  const listUsers = async (headers: Record<string, string>) =>
    (await harness.app.inject({ url: '/v1/users/list', headers })).json().data as { id: string; email: string }[];

  it('an admin adds a user: 201, ORG_MEMBER by default, listed afterwards', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: acme.headers,
      payload: { name: 'Grace Hopper', email: 'grace@acme.test' },
    });
    expect(response.statusCode).toBe(201);
    const user = response.json().data;
    expect(user).toMatchObject({ name: 'Grace Hopper', email: 'grace@acme.test', userType: 'ORG_MEMBER', status: 'offline' });
    expect((await listUsers(acme.headers)).map((u) => u.email)).toContain('grace@acme.test');
    const fetched = await harness.app.inject({ url: `/v1/users/${user.id}`, headers: acme.headers });
    expect(fetched.json().data).toEqual(user);
  });

  it.each([
    [{ email: 'x@acme.test' }, 'name is required'],
    [{ name: 'X', email: 'not-an-email' }, 'email must be a valid email'],
    [{ name: 'X', email: 'x@acme.test', userType: 'OWNER' }, 'userType must be one of: ORG_ADMIN, ORG_MEMBER'],
    [{ name: 'X', email: 'x@acme.test', role: 'admin' }, 'role is not an accepted field'],
  ])('rejects %j with a 400 naming the field, writing nothing', async (payload, message) => {
    const before = await listUsers(acme.headers);
    const response = await harness.app.inject({ method: 'POST', url: '/v1/users', headers: acme.headers, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    expect(await listUsers(acme.headers)).toEqual(before);
  });

  it('a duplicate email in the organization is a 409, case-insensitively; another organization may reuse it', async () => {
    const duplicate = await harness.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: acme.headers,
      payload: { name: 'Again', email: 'MEMBER@acme.test' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ statusCode: 409, message: 'User with this email already exists!', error: 'Conflict' });
    const elsewhere = await harness.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: globex.headers,
      payload: { name: 'Same', email: 'member@acme.test' },
    });
    expect(elsewhere.statusCode).toBe(201);
  });

  it("members cannot add users or issue someone else's key (403), but may issue their own", async () => {
    const create = await harness.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: member.headers,
      payload: { name: 'Nope', email: 'nope@acme.test' },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toEqual({
      statusCode: 403,
      message: 'User does not have access to this resource!',
      error: 'Forbidden',
    });
    const adminKeys = async () =>
      (await harness.app.inject({ url: `/v1/users/${acme.userId}/api-keys?limit=100`, headers: acme.headers })).json().data;
    const before = await adminKeys();
    const others = await harness.app.inject({
      method: 'POST',
      url: `/v1/users/${acme.userId}/api-keys`,
      headers: member.headers,
    });
    expect(others.statusCode).toBe(403);
    expect(others.json()).toEqual({
      statusCode: 403,
      message: 'User does not have access to this resource!',
      error: 'Forbidden',
    });
    expect(await adminKeys()).toEqual(before);
    const own = await harness.app.inject({ method: 'POST', url: `/v1/users/${member.userId}/api-keys`, headers: member.headers });
    expect(own.statusCode).toBe(201);
    const me = await harness.app.inject({ url: '/v1/users/me', headers: { 'x-api-key': own.json().data.apiKey } });
    expect(me.json().data.user.id).toBe(member.userId);
  });

  it('a member updates their own availability, capacity and timezone, but not someone else', async () => {
    const own = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/users/${member.userId}`,
      headers: member.headers,
      payload: { status: 'online', capacity: 5, timezone: 'Europe/Paris', name: 'Mia' },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ status: 'online', capacity: 5, timezone: 'Europe/Paris', name: 'Mia' });
    const other = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/users/${acme.userId}`,
      headers: member.headers,
      payload: { status: 'away' },
    });
    expect(other.statusCode).toBe(403);
  });

  it.each([
    [{ status: 'busy' }, 'status must be one of: online, away, offline'],
    [{ capacity: -1 }, 'capacity must be at least 0'],
    [{ capacity: 2.5 }, 'capacity must be a whole number'],
    [{ timezone: 'Mars/Olympus' }, 'timezone must be a valid IANA time zone'],
  ])('PATCH rejects %j naming the field', async (payload, message) => {
    const response = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/users/${member.userId}`,
      headers: acme.headers,
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('an admin issues a key shown once, which works until revoked', async () => {
    const issued = await harness.app.inject({
      method: 'POST',
      url: `/v1/users/${member.userId}/api-keys`,
      headers: acme.headers,
    });
    expect(issued.statusCode).toBe(201);
    const { apiKey, prefix, createdAt } = issued.json().data;
    expect(apiKey.startsWith(prefix)).toBe(true);
    expect(createdAt).toBe(TEST_NOW);
    const me = await harness.app.inject({ url: '/v1/users/me', headers: { 'x-api-key': apiKey } });
    expect(me.json().data.user.id).toBe(member.userId);

    const listed = await harness.app.inject({ url: `/v1/users/${member.userId}/api-keys`, headers: member.headers });
    // lastUsedAt is written just after the call above (user-access.test.ts checks it).
    expect(listed.json().data).toContainEqual(
      expect.objectContaining({ prefix, name: null, createdAt: TEST_NOW, revokedAt: null }),
    );
    expect(listed.body).not.toContain(apiKey);

    const revoked = await harness.app.inject({
      method: 'DELETE',
      url: `/v1/users/${member.userId}/api-keys/${prefix}`,
      headers: acme.headers,
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data).toEqual({ prefix, revokedAt: TEST_NOW });
    expect((await harness.app.inject({ url: '/v1/users/me', headers: { 'x-api-key': apiKey } })).statusCode).toBe(401);
    const again = await harness.app.inject({
      method: 'DELETE',
      url: `/v1/users/${member.userId}/api-keys/${prefix}`,
      headers: acme.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it("another organization's user is a 404 on every user route, and a malformed id a 400", async () => {
    const foreign = globex.userId;
    const routes = [
      { method: 'GET', url: `/v1/users/${foreign}` },
      { method: 'PATCH', url: `/v1/users/${foreign}`, payload: { name: 'x' } },
      { method: 'POST', url: `/v1/users/${foreign}/api-keys` },
      { method: 'GET', url: `/v1/users/${foreign}/api-keys` },
      { method: 'DELETE', url: `/v1/users/${foreign}/api-keys/${globex.apiKeyPrefix}` },
    ] as const;
    for (const route of routes) {
      const response = await harness.app.inject({ ...route, headers: acme.headers });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message: 'User not found!', error: 'Not Found' });
    }
    expect((await harness.app.inject({ url: '/v1/users/me', headers: globex.headers })).statusCode).toBe(200);
    const malformed = await harness.app.inject({ url: '/v1/users/not-a-ulid', headers: acme.headers });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('userId has an invalid format');
  });
});

describe.each(DIALECTS)('user and API key list pages on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const post = async (url: string, headers: Record<string, string>, payload?: object) => {
    const response = await harness.app.inject({ method: 'POST', url, headers, ...(payload && { payload }) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };

  it('pages live users oldest first by cursor or by page, never another organization’s', async () => {
    const me = (await harness.app.inject({ url: '/v1/users/me', headers: acme.headers })).json().data.user;
    const users: { id: string; at: string }[] = [{ id: me.id, at: me.createdAt }];
    for (let n = 1; n < 25; n++) {
      if (n % 3 === 0) {
        harness.clock.advance(1);
      }
      const user = await post('/v1/users', acme.headers, { name: `User ${n}`, email: `user${n}@acme.test` });
      users.push({ id: user.id, at: user.createdAt });
    }
    const gone = await post('/v1/users', acme.headers, { name: 'Gone', email: 'gone@acme.test' });
    await harness.db
      .updateTable('users')
      .set({ deleted_at: harness.clock.now().toISOString() })
      .where('id', '=', gone.id)
      .execute();
    const foreign = (await harness.app.inject({ url: '/v1/users/me', headers: globex.headers })).json().data.user;

    await expectCursorPagedList({
      app: harness.app,
      url: '/v1/users/list?limit=10',
      headers: acme.headers,
      read: envelopePage,
      expected: idsInOrder(users),
      pageNumbers: true,
      other: { url: '/v1/users/list?limit=10', headers: globex.headers, ids: [foreign.id] },
    });
  });

  it("pages a user's keys oldest first by cursor", async () => {
    const member = await makeUser(harness, acme.organizationId);
    const keys: { id: string; at: string }[] = [];
    const first = (await harness.app.inject({ url: `/v1/users/${member.userId}/api-keys`, headers: member.headers })).json();
    keys.push({ id: first.data[0].prefix, at: first.data[0].createdAt });
    for (let n = 1; n < 25; n++) {
      if (n % 3 === 0) {
        harness.clock.advance(1);
      }
      const key = await post(`/v1/users/${member.userId}/api-keys`, acme.headers);
      keys.push({ id: key.prefix, at: key.createdAt });
    }
    const globexMember = await makeUser(harness, globex.organizationId);
    // Keys are ordered by creation time, then by id (not shown), so the expected order is read from the table.
    const stored = await harness.db
      .selectFrom('api_keys')
      .select(['prefix', 'created_at', 'id'])
      .where('user_id', '=', member.userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(new Set(stored.map((key) => key.prefix))).toEqual(new Set(keys.map((key) => key.id)));

    await expectCursorPagedList({
      app: harness.app,
      url: `/v1/users/${member.userId}/api-keys?limit=10`,
      headers: member.headers,
      read: envelopePage,
      idOf: (row) => row.prefix,
      expected: stored.map((key) => key.prefix),
      pageNumbers: false,
      other: {
        url: `/v1/users/${globexMember.userId}/api-keys?limit=10`,
        headers: globex.headers,
        ids: [globexMember.apiKeyPrefix],
      },
    });
  });
});
