import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBrowser, signInBrowser } from '../../../test/browser-session.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { setUserPassword } from './credential.repository.js';
import { hashPassword } from './password.js';

const PASSWORD = 'correct horse battery staple';

describe.each(DIALECTS)("an admin's view of a user's sessions on %s", (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let ada: { userId: string; headers: { 'x-api-key': string } };
  let bob: { userId: string; headers: { 'x-api-key': string } };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    ada = await makeUser(harness, acme.organizationId, { email: `ada-${dialect}@acme.test` });
    bob = await makeUser(harness, acme.organizationId, { email: `bob-${dialect}@acme.test` });
    const hash = await hashPassword(PASSWORD);
    for (const userId of [ada.userId, bob.userId]) {
      await setUserPassword(harness.db, userId, hash, TEST_NOW);
    }
  });
  afterAll(() => harness.close());

  const sessionsOf = (userId: string, headers: Record<string, string>, query = '') =>
    harness.app.inject({ url: `/v1/users/${userId}/sessions${query}`, headers });
  const revoke = (userId: string, sessionId: string, headers: Record<string, string>) =>
    harness.app.inject({ method: 'DELETE', url: `/v1/users/${userId}/sessions/${sessionId}`, headers });
  const sessionExists = async (sessionId: string) =>
    (await harness.db.selectFrom('user_sessions').select('id').where('id', '=', sessionId).executeTakeFirst()) !== undefined;

  it("lists a user's sessions newest first, with the browser and address, paged by cursor", async () => {
    const older = await signInBrowser(harness.app, `ada-${dialect}@acme.test`, PASSWORD, {
      userAgent: 'Firefox/140',
      remoteAddress: '10.0.0.7',
    });
    harness.clock.advance(1000);
    const newer = await signInBrowser(harness.app, `ada-${dialect}@acme.test`, PASSWORD, { userAgent: 'Safari/18' });
    const first = await sessionsOf(ada.userId, acme.headers, '?limit=1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual([expect.objectContaining({ id: newer.sessionId, userAgent: 'Safari/18', current: false })]);
    const second = await sessionsOf(ada.userId, acme.headers, `?limit=1&cursor=${first.json().nextCursor}`);
    expect(second.json().data).toEqual([
      expect.objectContaining({ id: older.sessionId, userAgent: 'Firefox/140', ipAddress: '10.0.0.7' }),
    ]);
    expect(second.json().nextCursor).toBeNull();
  });

  it('ends one session at once: that browser is signed out, the others stay', async () => {
    const kept = await signInBrowser(harness.app, `bob-${dialect}@acme.test`, PASSWORD);
    const ended = await signInBrowser(harness.app, `bob-${dialect}@acme.test`, PASSWORD);
    const response = await revoke(bob.userId, ended.sessionId, acme.headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ id: ended.sessionId, current: false });
    expect((await asBrowser(harness.app, ended, { url: '/v1/users/me' })).statusCode).toBe(401);
    expect((await asBrowser(harness.app, kept, { url: '/v1/users/me' })).statusCode).toBe(200);
    expect((await revoke(bob.userId, ended.sessionId, acme.headers)).statusCode).toBe(404);
  });

  it("refuses members (403) and another organization's admin (404), and ends nothing", async () => {
    const browser = await signInBrowser(harness.app, `bob-${dialect}@acme.test`, PASSWORD);
    expect((await sessionsOf(bob.userId, ada.headers)).statusCode).toBe(403);
    expect((await revoke(bob.userId, browser.sessionId, ada.headers)).statusCode).toBe(403);
    // Not even their own through this route: members use /v1/auth/sessions.
    expect((await revoke(bob.userId, browser.sessionId, bob.headers)).statusCode).toBe(403);
    expect((await sessionsOf(bob.userId, globex.headers)).statusCode).toBe(404);
    expect((await revoke(bob.userId, browser.sessionId, globex.headers)).statusCode).toBe(404);
    // The session named under another user of the organization is no session of that user.
    expect((await revoke(ada.userId, browser.sessionId, acme.headers)).statusCode).toBe(404);
    expect(await sessionExists(browser.sessionId)).toBe(true);
  });

  it('checks the path and the query: malformed ids and limits are 400', async () => {
    expect((await sessionsOf('nope', acme.headers)).statusCode).toBe(400);
    expect((await sessionsOf(bob.userId, acme.headers, '?limit=0')).statusCode).toBe(400);
    expect((await sessionsOf(bob.userId, acme.headers, '?cursor=garbage')).statusCode).toBe(400);
    expect((await revoke(bob.userId, 'nope', acme.headers)).statusCode).toBe(400);
  });
});
