import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';
import { revokeApiKey } from './api-key.service.js';

type Headers = { 'x-api-key': string };
type App = TestApp['app'];

/**
 * Verified keys are cached for API_KEY_CACHE_SECONDS, here 300 s, far longer than any test runs:
 * a change that takes effect proves the cached key was forgotten, not that its entry expired.
 */
describe.each(DIALECTS)('credential changes take effect at once, the key cache notwithstanding, on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { API_KEY_CACHE_SECONDS: '300' } });
    acme = await makeOrganization(harness, { name: 'Acme' });
  });
  afterAll(() => harness.close());

  const me = async (headers: Headers, app: App = harness.app) => (await app.inject({ url: '/v1/users/me', headers })).statusCode;
  const revoke = (userId: string, prefix: string, app: App = harness.app) =>
    app.inject({ method: 'DELETE', url: `/v1/users/${userId}/api-keys/${prefix}`, headers: acme.headers });
  const patchUser = (userId: string, payload: object, app: App = harness.app) =>
    app.inject({ method: 'PATCH', url: `/v1/users/${userId}`, headers: acme.headers, payload });
  /** An admin-only write: adding a user. */
  const addUser = (headers: Headers, app: App = harness.app) =>
    app.inject({
      method: 'POST',
      url: '/v1/users',
      headers,
      payload: { name: 'New', email: `new-${Math.random().toString(36).slice(2)}@acme.test` },
    });

  it('caches a verified key: one revoked behind the app’s back keeps working (the control)', async () => {
    const member = await makeUser(harness, acme.organizationId);
    expect(await me(member.headers)).toBe(200);
    expect(await revokeApiKey(harness.db, harness.clock, member.apiKeyPrefix)).toBe(member.userId);
    expect(await me(member.headers)).toBe(200);
  });

  it('refuses a cached key on the very next request once it is revoked, and keeps the owner’s other keys', async () => {
    const member = await makeUser(harness, acme.organizationId);
    const other = await harness.app.inject({ method: 'POST', url: `/v1/users/${member.userId}/api-keys`, headers: acme.headers });
    const otherHeaders = { 'x-api-key': other.json().data.apiKey as string };
    expect(await me(member.headers)).toBe(200);
    expect(await me(otherHeaders)).toBe(200);

    const revoked = await revoke(member.userId, member.apiKeyPrefix);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await me(member.headers)).toBe(401);
    expect(await me(otherHeaders)).toBe(200);
  });

  it('refuses a disabled user’s cached key at once, and accepts it again once enabled', async () => {
    const member = await makeUser(harness, acme.organizationId);
    expect(await me(member.headers)).toBe(200);

    expect((await patchUser(member.userId, { disabled: true })).statusCode).toBe(200);
    expect(await me(member.headers)).toBe(401);
    expect((await patchUser(member.userId, { disabled: false })).statusCode).toBe(200);
    expect(await me(member.headers)).toBe(200);
  });

  it('refuses an admin write at once to an admin made a member, and allows it at once when made admin again', async () => {
    const admin = await makeUser(harness, acme.organizationId, { userType: 'ORG_ADMIN' });
    expect((await addUser(admin.headers)).statusCode).toBe(201);

    expect((await patchUser(admin.userId, { userType: 'ORG_MEMBER' })).statusCode).toBe(200);
    expect((await addUser(admin.headers)).statusCode).toBe(403);
    expect((await patchUser(admin.userId, { userType: 'ORG_ADMIN' })).statusCode).toBe(200);
    expect((await addUser(admin.headers)).statusCode).toBe(201);
  });

  it.runIf(dialect === 'postgres')(
    'tells the other processes: a key cached in one, revoked through another, is refused within moments',
    async () => {
      const processes = await serverProcesses(harness);
      try {
        const [first, second] = processes.apps;
        if (!first || !second) {
          throw new Error('two processes were expected on PostgreSQL');
        }
        const member = await makeUser(harness, acme.organizationId);
        const admin = await makeUser(harness, acme.organizationId, { userType: 'ORG_ADMIN' });
        const disabled = await makeUser(harness, acme.organizationId);
        expect(await me(member.headers, second)).toBe(200);
        expect((await addUser(admin.headers, second)).statusCode).toBe(201);
        expect(await me(disabled.headers, second)).toBe(200);

        expect((await revoke(member.userId, member.apiKeyPrefix, first)).statusCode).toBe(200);
        expect((await patchUser(admin.userId, { userType: 'ORG_MEMBER' }, first)).statusCode).toBe(200);
        expect((await patchUser(disabled.userId, { disabled: true }, first)).statusCode).toBe(200);

        // NOTIFY reaches the other process asynchronously: within moments, long before 300 s.
        const within = { timeout: 2_000, interval: 20 };
        await expect.poll(() => me(member.headers, second), within).toBe(401);
        await expect.poll(async () => (await addUser(admin.headers, second)).statusCode, within).toBe(403);
        await expect.poll(() => me(disabled.headers, second), within).toBe(401);
      } finally {
        await processes.close();
      }
    },
  );
});
