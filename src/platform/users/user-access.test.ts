import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, TEST_NOW, type TestApp } from '../../../test/harness.js';

type Headers = { 'x-api-key': string };

describe.each(DIALECTS)('API key names, last use and roles on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
  });
  afterEach(() => harness.clock.set(TEST_NOW));
  afterAll(() => harness.close());

  const issue = (userId: string, headers: Headers, payload?: unknown) =>
    harness.app.inject({ method: 'POST', url: `/v1/users/${userId}/api-keys`, headers, payload: payload as object });
  const keysOf = async (userId: string, headers: Headers = acme.headers) => {
    const response = await harness.app.inject({ url: `/v1/users/${userId}/api-keys`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { prefix: string; name: string | null; lastUsedAt: string | null; revokedAt: string | null }[];
  };
  const keyCount = async () => (await harness.db.selectFrom('api_keys').select('id').execute()).length;
  const patchUser = (userId: string, headers: Headers, payload: object) =>
    harness.app.inject({ method: 'PATCH', url: `/v1/users/${userId}`, headers, payload });
  const roleOf = async (userId: string) =>
    (await harness.db.selectFrom('users').select('user_type').where('id', '=', userId).executeTakeFirstOrThrow()).user_type;

  it('names a key when it is issued and lists it with its name; keys issued without one have none', async () => {
    const member = await makeUser(harness, acme.organizationId);
    const named = await issue(member.userId, acme.headers, { name: '  Zapier ' });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().data).toEqual({
      apiKey: expect.any(String),
      prefix: expect.any(String),
      name: 'Zapier',
      createdAt: TEST_NOW,
    });
    const bare = await issue(member.userId, member.headers);
    expect(bare.statusCode, bare.body).toBe(201);
    expect(bare.json().data.name).toBeNull();

    const keys = await keysOf(member.userId);
    expect(keys.map((key) => key.name)).toEqual([null, 'Zapier', null]);
    expect(keys.find((key) => key.name === 'Zapier')).toEqual({
      prefix: named.json().data.prefix,
      name: 'Zapier',
      createdAt: TEST_NOW,
      lastUsedAt: null,
      revokedAt: null,
    });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 42 }, 'name'],
    [{ label: 'Zapier' }, 'label'],
  ])('refuses a key named %j with a 400 naming the field, and issues nothing', async (payload, field) => {
    const before = await keyCount();
    const response = await issue(acme.userId, acme.headers, payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(new RegExp(`^${field}\\b`));
    expect(await keyCount()).toBe(before);
  });

  it('records when a key was last used, at most once a minute, whichever process serves it', async () => {
    const member = await makeUser(harness, acme.organizationId);
    const lastUsed = async () => (await keysOf(member.userId)).find((key) => key.prefix === member.apiKeyPrefix)?.lastUsedAt;
    expect(await lastUsed()).toBeNull();

    const processes = await serverProcesses(harness);
    try {
      const [first = harness.app, second = first] = processes.apps;
      const call = async (app: typeof first) => {
        const response = await app.inject({ url: '/v1/users/me', headers: member.headers });
        expect(response.statusCode).toBe(200);
      };
      await call(first);
      // The write does not hold the request up: it lands just after.
      await expect.poll(lastUsed).toBe(TEST_NOW);

      harness.clock.advance(30_000);
      await call(second);
      await call(first);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await lastUsed()).toBe(TEST_NOW);

      // The first process wrote a minute ago; the second tried 31 s ago and is still waiting its minute.
      harness.clock.advance(31_000);
      await call(first);
      await expect.poll(lastUsed).toBe(new Date(Date.parse(TEST_NOW) + 61_000).toISOString());
    } finally {
      await processes.close();
    }
  });

  it("lets an admin change a member's role both ways; members change no role, not even their own", async () => {
    const member = await makeUser(harness, acme.organizationId);
    const promoted = await patchUser(member.userId, acme.headers, { userType: 'ORG_ADMIN' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json().data.userType).toBe('ORG_ADMIN');
    const demoted = await patchUser(member.userId, acme.headers, { userType: 'ORG_MEMBER' });
    expect(demoted.json().data.userType).toBe('ORG_MEMBER');

    const own = await patchUser(member.userId, member.headers, { userType: 'ORG_ADMIN', name: 'Sneaky' });
    expect(own.statusCode).toBe(403);
    expect(await roleOf(member.userId)).toBe('ORG_MEMBER');
    const renamed = await harness.db.selectFrom('users').select('name').where('id', '=', member.userId).executeTakeFirstOrThrow();
    expect(renamed.name).not.toBe('Sneaky');

    const invalid = await patchUser(member.userId, acme.headers, { userType: 'OWNER' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toMatch(/^userType\b/);
    expect((await patchUser(member.userId, globex.headers, { userType: 'ORG_ADMIN' })).statusCode).toBe(404);
    expect(await roleOf(member.userId)).toBe('ORG_MEMBER');
  });

  it('keeps an enabled admin: the last one cannot become a member, one of two can', async () => {
    const solo = await makeOrganization(harness, { name: 'Solo' });
    const refused = await patchUser(solo.userId, solo.headers, { userType: 'ORG_MEMBER' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toBe(
      "userType cannot change: this is the organization's last enabled admin; make another user an admin first",
    );
    expect(await roleOf(solo.userId)).toBe('ORG_ADMIN');

    // A disabled admin is no admin anyone can work as.
    const disabledAdmin = await makeUser(harness, solo.organizationId, { userType: 'ORG_ADMIN' });
    expect((await patchUser(disabledAdmin.userId, solo.headers, { disabled: true })).statusCode).toBe(200);
    expect((await patchUser(solo.userId, solo.headers, { userType: 'ORG_MEMBER' })).statusCode).toBe(400);

    const second = await makeUser(harness, solo.organizationId, { userType: 'ORG_ADMIN' });
    const stepsDown = await patchUser(solo.userId, solo.headers, { userType: 'ORG_MEMBER' });
    expect(stepsDown.statusCode, stepsDown.body).toBe(200);
    expect(await roleOf(solo.userId)).toBe('ORG_MEMBER');
    // Now the second is the last.
    expect((await patchUser(second.userId, second.headers, { userType: 'ORG_MEMBER' })).statusCode).toBe(400);
  });

  it('lets only one of two admins demoting themselves at once go through', async () => {
    const pair = await makeOrganization(harness, { name: 'Pair' });
    const other = await makeUser(harness, pair.organizationId, { userType: 'ORG_ADMIN' });
    const processes = await serverProcesses(harness);
    try {
      const [first = harness.app, second = first] = processes.apps;
      const answers = await Promise.all([
        first.inject({
          method: 'PATCH',
          url: `/v1/users/${pair.userId}`,
          headers: pair.headers,
          payload: { userType: 'ORG_MEMBER' },
        }),
        second.inject({
          method: 'PATCH',
          url: `/v1/users/${other.userId}`,
          headers: other.headers,
          payload: { userType: 'ORG_MEMBER' },
        }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
      const admins = await harness.db
        .selectFrom('users')
        .select('id')
        .where('organization_id', '=', pair.organizationId)
        .where('user_type', '=', 'ORG_ADMIN')
        .execute();
      expect(admins).toHaveLength(1);
    } finally {
      await processes.close();
    }
  });
});
