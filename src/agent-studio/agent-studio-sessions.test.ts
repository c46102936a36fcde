import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBrowser, type Browser, signInBrowser } from '../../test/browser-session.js';
import { DIALECTS } from '../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../test/harness.js';
import { setUserPassword } from '../platform/auth/credential.repository.js';
import { hashPassword } from '../platform/auth/password.js';

const PASSWORD = 'correct horse battery staple';

/** The console's AI agents pages call the agent studio with the session they signed in with. */
describe.each(DIALECTS)('the agent studio with a console session on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let admin: Browser;
  let member: Browser;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { adminEmail: `admin-${dialect}@acme.test` });
    globex = await makeOrganization(harness, { adminEmail: `admin-${dialect}@globex.test` });
    const ada = await makeUser(harness, acme.organizationId, { name: 'Ada', email: `ada-${dialect}@acme.test` });
    const hash = await hashPassword(PASSWORD);
    for (const userId of [acme.userId, ada.userId]) {
      await setUserPassword(harness.db, userId, hash, TEST_NOW);
    }
    admin = await signInBrowser(harness.app, `admin-${dialect}@acme.test`, PASSWORD);
    member = await signInBrowser(harness.app, `ada-${dialect}@acme.test`, PASSWORD);
  });
  afterAll(() => harness?.close());

  const agentNames = async (organizationId: string) =>
    (await harness.db.selectFrom('agents').select('name').where('organization_id', '=', organizationId).execute()).map(
      (row) => row.name,
    );

  it('reads and writes as the signed-in user, in their organization, with their role', async () => {
    const created = await asBrowser(harness.app, admin, { method: 'POST', url: '/api/v1/agents', payload: { name: 'Triage' } });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ name: 'Triage', organization_id: acme.organizationId, created_by: acme.userId });

    const listed = await asBrowser(harness.app, member, { method: 'GET', url: '/api/v1/agents' });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().map((agent: { name: string }) => agent.name)).toEqual(['Triage']);

    const refused = await asBrowser(harness.app, member, { method: 'POST', url: '/api/v1/agents', payload: { name: 'Mine' } });
    expect(refused.statusCode).toBe(403);
    const foreign = await harness.app.inject({
      method: 'GET',
      url: `/api/v1/agents/${created.json().id}`,
      headers: globex.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(await agentNames(acme.organizationId)).toEqual(['Triage']);
  });

  it('refuses a cookie write without the CSRF header, or from another site, in its own error shape, writing nothing', async () => {
    const withoutHeader = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/agents',
      headers: { cookie: admin.cookie },
      payload: { name: 'Forged' },
    });
    expect(withoutHeader.statusCode).toBe(403);
    expect(withoutHeader.json()).toEqual({ detail: expect.stringContaining('x-csrf-token') });
    const otherSite = await asBrowser(harness.app, admin, {
      method: 'POST',
      url: '/api/v1/agents',
      headers: { origin: 'https://evil.example' },
      payload: { name: 'Forged' },
    });
    expect(otherSite.statusCode).toBe(403);
    expect(await agentNames(acme.organizationId)).not.toContain('Forged');
  });

  it('answers 401 to a session that is not valid, on known and unknown routes alike', async () => {
    for (const url of ['/api/v1/agents', '/api/v1/no-such-route']) {
      const response = await harness.app.inject({ method: 'GET', url, headers: { cookie: 'sb_session=not-a-session' } });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual({ detail: expect.any(String) });
    }
  });
});
