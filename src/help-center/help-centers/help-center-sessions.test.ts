import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBrowser, type Browser, signInBrowser } from '../../../test/browser-session.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { setUserPassword } from '../../platform/auth/credential.repository.js';
import { hashPassword } from '../../platform/auth/password.js';

const PASSWORD = 'correct horse battery staple';

/** The console's Knowledge pages call the help-center API with the session cookie, as the platform's pages do. */
describe.each(DIALECTS)('the help-center API with a console session on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let admin: Browser;
  let member: Browser;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { adminEmail: `admin-${dialect}@acme.test` });
    globex = await makeOrganization(harness);
    const writer = await makeUser(harness, acme.organizationId, { email: `writer-${dialect}@acme.test` });
    const hash = await hashPassword(PASSWORD);
    await setUserPassword(harness.db, acme.userId, hash, TEST_NOW);
    await setUserPassword(harness.db, writer.userId, hash, TEST_NOW);
    admin = await signInBrowser(harness.app, `admin-${dialect}@acme.test`, PASSWORD, { remoteAddress: '10.9.0.1' });
    member = await signInBrowser(harness.app, `writer-${dialect}@acme.test`, PASSWORD, { remoteAddress: '10.9.0.2' });
  });
  afterAll(() => harness.close());

  const helpCenterNames = async () =>
    (await harness.db.selectFrom('help_centers').select('name').where('organization_id', '=', acme.organizationId).execute())
      .map((row) => row.name)
      .sort();

  it('reads and writes as the signed-in person: their organization only, their role', async () => {
    const created = await asBrowser(harness.app, admin, { method: 'POST', url: '/help-centers', payload: { name: 'Guides' } });
    expect(created.statusCode, created.body).toBe(201);
    const listed = await asBrowser(harness.app, member, { url: '/help-centers' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((center: { name: string }) => center.name)).toEqual(['Guides']);

    const foreign = await harness.app.inject({
      method: 'POST',
      url: '/help-centers',
      headers: globex.headers,
      payload: { name: 'Theirs' },
    });
    const foreignId = foreign.json().data._id as string;
    expect((await asBrowser(harness.app, admin, { url: `/help-centers/${foreignId}` })).statusCode).toBe(404);

    const byMember = await asBrowser(harness.app, member, { method: 'POST', url: '/help-centers', payload: { name: 'Mine' } });
    expect(byMember.statusCode).toBe(403);
    expect(await helpCenterNames()).toEqual(['Guides']);
  });

  it('refuses a cookie write without the CSRF header or from another site, and writes nothing', async () => {
    const refusals = [
      await harness.app.inject({
        method: 'POST',
        url: '/help-centers',
        headers: { cookie: admin.cookie },
        payload: { name: 'A' },
      }),
      await asBrowser(harness.app, admin, {
        method: 'POST',
        url: '/help-centers',
        headers: { origin: 'https://evil.test' },
        payload: { name: 'B' },
      }),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(403);
    }
    expect(await helpCenterNames()).toEqual(['Guides']);
  });

  it('answers 401 to an unknown session, as to a missing key', async () => {
    const response = await harness.app.inject({ url: '/help-centers', headers: { cookie: 'sb_session=unknown' } });
    expect(response.statusCode).toBe(401);
  });
});
