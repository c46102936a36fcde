import { createHash, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asBrowser, type Browser, browserOf, signInBrowser } from '../../../test/browser-session.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, TEST_NOW, type TestApp, testConfig } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { setUserPassword } from './credential.repository.js';
import { hashPassword } from './password.js';

const PASSWORD = 'correct horse battery staple';
const HOUR = 60 * 60_000;
const UNAUTHENTICATED = { statusCode: 401, message: 'User is not authenticated!', error: 'Unauthorized' };

/** A client address of its own, so that sign-in failures counted in one test never reach another. */
const freshAddress = () => `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;

describe.each(DIALECTS)('sign-in and sessions on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let ada: { userId: string; email: string; headers: { 'x-api-key': string } };
  let bob: { userId: string; email: string; headers: { 'x-api-key': string } };
  let app: FastifyInstance;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, {
      env: { SIGN_IN_FAILURES_PER_ADDRESS: '6', SIGN_IN_FAILURES_PER_ACCOUNT: '4' },
    });
    app = harness.app;
    acme = await makeOrganization(harness, { name: 'Acme', adminEmail: `admin-${dialect}@acme.test` });
    ada = { ...(await makeUser(harness, acme.organizationId, { name: 'Ada', email: 'ada@acme.test' })), email: 'ada@acme.test' };
    bob = { ...(await makeUser(harness, acme.organizationId, { name: 'Bob', email: 'bob@acme.test' })), email: 'bob@acme.test' };
    const hash = await hashPassword(PASSWORD);
    for (const userId of [acme.userId, ada.userId, bob.userId]) {
      await setUserPassword(harness.db, userId, hash, TEST_NOW);
    }
  });
  afterEach(() => harness.clock.set(TEST_NOW));
  afterAll(() => harness.close());

  const login = (payload: object, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload,
      remoteAddress: options.remoteAddress ?? freshAddress(),
      headers: options.headers,
    });
  const me = (browser: Browser) => asBrowser(app, browser, { url: '/v1/users/me' });
  const sessionCount = async (userId: string) =>
    (await harness.db.selectFrom('user_sessions').select('id').where('user_id', '=', userId).execute()).length;
  const disable = (userId: string, disabled: boolean, headers: Record<string, string> = acme.headers) =>
    app.inject({ method: 'PATCH', url: `/v1/users/${userId}`, headers, payload: { disabled } });

  it('signs in with email and password: the user, the session and two cookies, the token kept only as a hash', async () => {
    const response = await login({ email: 'ADA@acme.test', password: PASSWORD }, { headers: { 'user-agent': 'Firefox/140' } });
    expect(response.statusCode, response.body).toBe(200);
    const browser = browserOf(response);
    const body = response.json();
    expect(body.data).toMatchObject({
      user: { id: ada.userId, email: 'ada@acme.test', userType: 'ORG_MEMBER', disabled: false },
      organization: { id: acme.organizationId, name: 'Acme' },
      session: {
        id: expect.stringMatching(/^[0-9A-Z]{26}$/),
        current: true,
        createdAt: TEST_NOW,
        lastSeenAt: TEST_NOW,
        expiresAt: '2026-02-14T09:00:00.000Z',
        idleExpiresAt: '2026-01-15T21:00:00.000Z',
        userAgent: 'Firefox/140',
      },
      csrfToken: browser.csrfToken,
    });

    const setCookie = response.headers['set-cookie'] as string[];
    expect(setCookie).toEqual([
      `sb_session=${browser.sessionToken}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`,
      `sb_csrf=${browser.csrfToken}; Path=/; Max-Age=2592000; SameSite=Lax`,
    ]);

    const rows = await harness.db.selectFrom('user_sessions').selectAll().where('id', '=', browser.sessionId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(createHash('sha256').update(browser.sessionToken).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(browser.sessionToken);

    const whoAmI = await me(browser);
    expect(whoAmI.statusCode).toBe(200);
    expect(whoAmI.json().data.user.id).toBe(ada.userId);
    const current = await asBrowser(app, browser, { url: '/v1/auth/session' });
    expect(current.json().data).toMatchObject({
      user: { id: ada.userId },
      session: { id: browser.sessionId, current: true },
      csrfToken: browser.csrfToken,
    });
    const withKey = await app.inject({ url: '/v1/auth/session', headers: ada.headers });
    expect(withKey.json().data).toMatchObject({ user: { id: ada.userId }, session: null, csrfToken: null });
  });

  it('a wrong password and an unknown email get the same 401, and write nothing', async () => {
    const before = await sessionCount(ada.userId);
    const wrong = await login({ email: 'ada@acme.test', password: 'not the password at all' });
    const unknown = await login({ email: 'nobody@acme.test', password: PASSWORD });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(UNAUTHENTICATED);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(await sessionCount(ada.userId)).toBe(before);

    // A user who never set a password cannot sign in with any.
    const fresh = await makeUser(harness, acme.organizationId, { email: 'fresh@acme.test' });
    expect((await login({ email: 'fresh@acme.test', password: PASSWORD })).json()).toEqual(UNAUTHENTICATED);
    expect(await sessionCount(fresh.userId)).toBe(0);

    for (const payload of [
      { email: 'ada@acme.test' },
      { email: 'not-an-email', password: PASSWORD },
      { email: 'ada@acme.test', password: '' },
    ]) {
      expect((await login(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('marks a Secure cookie behind HTTPS: PUBLIC_BASE_URL https, or https through a trusted proxy', async () => {
    const build = (env: Record<string, string>) =>
      buildApp({
        config: testConfig(env),
        db: harness.db,
        clock: harness.clock,
        ids: harness.ids,
        log: pino({ level: 'silent' }),
      });
    const published = await build({ PUBLIC_BASE_URL: 'https://help.acme.test' });
    const proxied = await build({ PUBLIC_BASE_URL: '', TRUST_PROXY: 'true' });
    try {
      const cases: [FastifyInstance, Record<string, string>, boolean][] = [
        [published, {}, true],
        [proxied, { 'x-forwarded-proto': 'https' }, true],
        [proxied, {}, false],
        [app, { 'x-forwarded-proto': 'https' }, false],
      ];
      for (const [instance, headers, secure] of cases) {
        const response = await instance.inject({
          method: 'POST',
          url: '/v1/auth/login',
          payload: { email: 'bob@acme.test', password: PASSWORD },
          headers,
          remoteAddress: freshAddress(),
        });
        expect(response.statusCode).toBe(200);
        for (const cookie of response.headers['set-cookie'] as string[]) {
          expect(cookie.includes('; Secure'), `${JSON.stringify(headers)} ${cookie}`).toBe(secure);
        }
      }
    } finally {
      await published.close();
      await proxied.close();
    }
  });

  it('a session ends after 12 hours idle, and records activity at most once a minute', async () => {
    const browser = await signInBrowser(app, 'ada@acme.test', PASSWORD, { remoteAddress: freshAddress() });
    const lastSeen = async () =>
      (
        await harness.db
          .selectFrom('user_sessions')
          .select('last_seen_at')
          .where('id', '=', browser.sessionId)
          .executeTakeFirstOrThrow()
      ).last_seen_at;

    harness.clock.advance(30_000);
    expect((await me(browser)).statusCode).toBe(200);
    expect(new Date(await lastSeen()).toISOString()).toBe(TEST_NOW);
    harness.clock.advance(31_000);
    expect((await me(browser)).statusCode).toBe(200);
    expect(new Date(await lastSeen()).toISOString()).toBe('2026-01-15T09:01:01.000Z');

    // Each request within 12 hours keeps it going…
    harness.clock.advance(12 * HOUR - 1);
    expect((await me(browser)).statusCode).toBe(200);
    // …and 12 hours without one ends it: the browser is told to drop its cookies.
    harness.clock.advance(12 * HOUR);
    const ended = await me(browser);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual(UNAUTHENTICATED);
    expect(ended.headers['set-cookie']).toEqual([
      'sb_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax',
      'sb_csrf=; Path=/; Max-Age=0; SameSite=Lax',
    ]);
  });

  it('a session ends 30 days after sign-in, however active', async () => {
    const browser = await signInBrowser(app, 'bob@acme.test', PASSWORD, { remoteAddress: freshAddress() });
    for (let elapsed = 0; elapsed + 11 * HOUR < 30 * 24 * HOUR; elapsed += 11 * HOUR) {
      harness.clock.advance(11 * HOUR);
      expect((await me(browser)).statusCode, `after ${elapsed / HOUR + 11} hours`).toBe(200);
    }
    harness.clock.set(new Date(Date.parse(TEST_NOW) + 30 * 24 * HOUR - 1));
    expect((await me(browser)).statusCode).toBe(200);
    harness.clock.advance(1);
    expect((await me(browser)).statusCode).toBe(401);
  });

  it('lists the caller’s sessions newest first, the current one marked, and ends any of them', async () => {
    const carol = await makeUser(harness, acme.organizationId, { email: 'carol@acme.test' });
    await setUserPassword(harness.db, carol.userId, await hashPassword(PASSWORD), TEST_NOW);
    const browsers: Browser[] = [];
    for (const userAgent of ['Safari/18', 'Chrome/140', 'Firefox/140']) {
      harness.clock.advance(1000);
      browsers.push(
        await signInBrowser(app, 'carol@acme.test', PASSWORD, { userAgent, remoteAddress: `192.0.2.${browsers.length + 1}` }),
      );
    }
    const [safari, chrome, firefox] = browsers as [Browser, Browser, Browser];
    const others = await signInBrowser(app, 'ada@acme.test', PASSWORD, { remoteAddress: freshAddress() });

    const listed = await asBrowser(app, chrome, { url: '/v1/auth/sessions' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([
      expect.objectContaining({ id: firefox.sessionId, current: false, userAgent: 'Firefox/140', ipAddress: '192.0.2.3' }),
      expect.objectContaining({ id: chrome.sessionId, current: true, userAgent: 'Chrome/140', ipAddress: '192.0.2.2' }),
      expect.objectContaining({ id: safari.sessionId, current: false, userAgent: 'Safari/18', ipAddress: '192.0.2.1' }),
    ]);
    const first = (await asBrowser(app, chrome, { url: '/v1/auth/sessions?limit=2' })).json();
    expect(first.data.map((session: { id: string }) => session.id)).toEqual([firefox.sessionId, chrome.sessionId]);
    const second = (await asBrowser(app, chrome, { url: `/v1/auth/sessions?limit=2&cursor=${first.nextCursor}` })).json();
    expect(second.data.map((session: { id: string }) => session.id)).toEqual([safari.sessionId]);
    expect(second.nextCursor).toBeNull();
    // With the user's API key: the same sessions, none current.
    const byKey = (await app.inject({ url: '/v1/auth/sessions', headers: carol.headers })).json().data;
    expect(byKey.map((session: { current: boolean }) => session.current)).toEqual([false, false, false]);

    // Another user's session, or an unknown one, is not the caller's to end.
    for (const id of [others.sessionId, '01J00000000000000000000000']) {
      const refused = await asBrowser(app, chrome, { method: 'DELETE', url: `/v1/auth/sessions/${id}` });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ statusCode: 404, message: 'Session not found!', error: 'Not Found' });
    }
    expect((await me(others)).statusCode).toBe(200);

    const revoked = await asBrowser(app, chrome, { method: 'DELETE', url: `/v1/auth/sessions/${safari.sessionId}` });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data).toMatchObject({ id: safari.sessionId, current: false });
    expect(revoked.headers['set-cookie']).toBeUndefined();
    expect((await me(safari)).statusCode).toBe(401);
    expect((await me(chrome)).statusCode).toBe(200);

    const own = await asBrowser(app, firefox, { method: 'DELETE', url: `/v1/auth/sessions/${firefox.sessionId}` });
    expect(own.json().data).toMatchObject({ id: firefox.sessionId, current: true });
    expect(own.headers['set-cookie']).toEqual(expect.arrayContaining([expect.stringMatching(/^sb_session=; .*Max-Age=0/)]));
    expect((await me(firefox)).statusCode).toBe(401);
    expect((await asBrowser(app, chrome, { url: '/v1/auth/sessions' })).json().data.map((s: { id: string }) => s.id)).toEqual([
      chrome.sessionId,
    ]);
  });

  it('signs out: the session ends and the cookies are cleared; an API key has no session to end', async () => {
    const browser = await signInBrowser(app, 'bob@acme.test', PASSWORD, { remoteAddress: freshAddress() });
    const refused = await app.inject({ method: 'POST', url: '/v1/auth/logout', headers: { cookie: browser.cookie } });
    expect(refused.statusCode).toBe(403);
    expect((await me(browser)).statusCode).toBe(200);

    const signedOut = await asBrowser(app, browser, { method: 'POST', url: '/v1/auth/logout' });
    expect(signedOut.statusCode).toBe(200);
    expect(signedOut.json().data).toEqual({ sessionId: browser.sessionId });
    expect(signedOut.headers['set-cookie']).toEqual([
      'sb_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax',
      'sb_csrf=; Path=/; Max-Age=0; SameSite=Lax',
    ]);
    expect((await me(browser)).statusCode).toBe(401);
    expect((await asBrowser(app, browser, { method: 'POST', url: '/v1/auth/logout' })).statusCode).toBe(401);

    const byKey = await app.inject({ method: 'POST', url: '/v1/auth/logout', headers: bob.headers });
    expect(byKey.json().data).toEqual({ sessionId: null });
    expect(byKey.headers['set-cookie']).toBeUndefined();
  });

  it('writes with a cookie need the CSRF token and an Origin of this service; API keys need neither', async () => {
    const browser = await signInBrowser(app, 'ada@acme.test', PASSWORD, { remoteAddress: freshAddress() });
    const rename = (name: string, headers: Record<string, string>) =>
      app.inject({ method: 'PATCH', url: `/v1/users/${ada.userId}`, payload: { name }, headers });
    const nameNow = async () =>
      (await harness.db.selectFrom('users').select('name').where('id', '=', ada.userId).executeTakeFirstOrThrow()).name;
    const forged = 'A'.repeat(43);
    const refusals: [string, Record<string, string>][] = [
      ['no header', { cookie: browser.cookie }],
      ['a wrong header', { cookie: browser.cookie, 'x-csrf-token': forged }],
      ['a header without the cookie', { cookie: `sb_session=${browser.sessionToken}`, 'x-csrf-token': browser.csrfToken }],
      [
        'a planted cookie echoed in the header',
        { cookie: `sb_session=${browser.sessionToken}; sb_csrf=${forged}`, 'x-csrf-token': forged },
      ],
      ['another site’s Origin', { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken, origin: 'https://evil.test' }],
      ['an opaque Origin', { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken, origin: 'null' }],
      [
        'another site’s Referer',
        { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken, referer: 'https://evil.test/page' },
      ],
    ];
    for (const [label, headers] of refusals) {
      const response = await rename('Mallory', headers);
      expect(response.statusCode, label).toBe(403);
      expect(response.json().error, label).toBe('Forbidden');
    }
    expect(await nameNow()).toBe('Ada');

    const fromConsole = await rename('Ada L.', {
      cookie: browser.cookie,
      'x-csrf-token': browser.csrfToken,
      origin: 'http://localhost:3000',
      referer: 'http://localhost:3000/app/inbox',
    });
    expect(fromConsole.statusCode, fromConsole.body).toBe(200);
    expect(await nameNow()).toBe('Ada L.');
    // Reads need no token.
    expect(
      (await app.inject({ url: '/v1/users/me', headers: { cookie: browser.cookie, origin: 'https://evil.test' } })).statusCode,
    ).toBe(200);
    // A key is judged alone: no CSRF token, and the key's user even beside another user's cookie.
    const byKey = await rename('Ada', { ...ada.headers, origin: 'https://evil.test' });
    expect(byKey.statusCode).toBe(200);
    const both = await app.inject({ url: '/v1/users/me', headers: { ...bob.headers, cookie: browser.cookie } });
    expect(both.json().data.user.id).toBe(bob.userId);
    const badKey = await app.inject({
      url: '/v1/users/me',
      headers: { 'x-api-key': `sbk_abcdefgh_${'A'.repeat(43)}`, cookie: browser.cookie },
    });
    expect(badKey.statusCode).toBe(401);
  });

  it('a tampered, unknown or malformed session cookie is a 401', async () => {
    const browser = await signInBrowser(app, 'ada@acme.test', PASSWORD, { remoteAddress: freshAddress() });
    const last = browser.sessionToken.at(-1) === 'A' ? 'B' : 'A';
    for (const token of [`${browser.sessionToken.slice(0, -1)}${last}`, 'A'.repeat(43), 'garbage', '']) {
      const response = await app.inject({
        url: '/v1/users/me',
        headers: { cookie: `sb_session=${token}; sb_csrf=${browser.csrfToken}` },
      });
      expect(response.statusCode, token).toBe(401);
      expect(response.json()).toEqual(UNAUTHENTICATED);
    }
    expect((await me(browser)).statusCode).toBe(200);
  });

  it('disabling a user ends its sessions at once, refuses its sign-in and its keys; enabling lets it sign in again', async () => {
    const dora = await makeUser(harness, acme.organizationId, { email: 'dora@acme.test' });
    await setUserPassword(harness.db, dora.userId, await hashPassword(PASSWORD), TEST_NOW);
    const browser = await signInBrowser(app, 'dora@acme.test', PASSWORD, { remoteAddress: freshAddress() });

    // Only admins disable, never themselves; a member's own PATCH may not carry it either.
    const member = await asBrowser(app, browser, {
      method: 'PATCH',
      url: `/v1/users/${dora.userId}`,
      payload: { disabled: true },
    });
    expect(member.statusCode).toBe(403);
    expect((await disable(acme.userId, true)).json()).toEqual({
      statusCode: 403,
      message: 'You cannot disable or enable yourself',
      error: 'Forbidden',
    });
    expect((await disable(dora.userId, true, ada.headers)).statusCode).toBe(403);
    const foreign = await makeOrganization(harness);
    expect((await disable(dora.userId, true, foreign.headers)).statusCode).toBe(404);
    expect((await me(browser)).statusCode).toBe(200);

    const disabled = await disable(dora.userId, true);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().data).toMatchObject({ id: dora.userId, disabled: true });
    expect(await sessionCount(dora.userId)).toBe(0);
    expect((await me(browser)).statusCode).toBe(401);
    expect((await app.inject({ url: '/v1/users/me', headers: dora.headers })).statusCode).toBe(401);
    const refused = await login({ email: 'dora@acme.test', password: PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This user is disabled: ask an admin of your organization');
    expect(await sessionCount(dora.userId)).toBe(0);
    // A wrong password still gets the generic answer: being disabled is told only to whoever knows the password.
    expect((await login({ email: 'dora@acme.test', password: 'wrong password entirely' })).statusCode).toBe(401);

    const enabled = await disable(dora.userId, false);
    expect(enabled.json().data.disabled).toBe(false);
    expect((await me(browser)).statusCode).toBe(401);
    expect((await login({ email: 'dora@acme.test', password: PASSWORD })).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/users/me', headers: dora.headers })).statusCode).toBe(200);
  });

  it('an email in several organizations signs in where the password matches; organizationId chooses between matches', async () => {
    const globex = await makeOrganization(harness, { name: 'Globex' });
    const initech = await makeOrganization(harness, { name: 'Initech' });
    const inGlobex = await makeUser(harness, globex.organizationId, { email: 'eve@multi.test' });
    const inInitech = await makeUser(harness, initech.organizationId, { email: 'eve@multi.test' });
    await setUserPassword(harness.db, inGlobex.userId, await hashPassword(PASSWORD), TEST_NOW);
    await setUserPassword(harness.db, inInitech.userId, await hashPassword('another long passphrase'), TEST_NOW);

    const globexOnly = await login({ email: 'eve@multi.test', password: PASSWORD });
    expect(globexOnly.json().data.organization.name).toBe('Globex');
    const initechOnly = await login({ email: 'eve@multi.test', password: 'another long passphrase' });
    expect(initechOnly.json().data.organization.name).toBe('Initech');

    await setUserPassword(harness.db, inInitech.userId, await hashPassword(PASSWORD), TEST_NOW);
    const ambiguous = await login({ email: 'eve@multi.test', password: PASSWORD });
    expect(ambiguous.statusCode).toBe(409);
    expect(ambiguous.json().message).toContain('organizationId');
    const chosen = await login({ email: 'eve@multi.test', password: PASSWORD, organizationId: initech.organizationId });
    expect(chosen.json().data.user.id).toBe(inInitech.userId);
  });

  it('replaces a hash made with weaker parameters at the next sign-in', async () => {
    const weak = await makeUser(harness, acme.organizationId, { email: 'weak@acme.test' });
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync(PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = `$scrypt$ln=14,r=8,p=1$${salt.toString('base64').replace(/=+$/, '')}$${key.toString('base64').replace(/=+$/, '')}`;
    await setUserPassword(harness.db, weak.userId, old, TEST_NOW);
    expect((await login({ email: 'weak@acme.test', password: PASSWORD })).statusCode).toBe(200);
    const stored = await harness.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', weak.userId)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/);
    expect((await login({ email: 'weak@acme.test', password: PASSWORD })).statusCode).toBe(200);
  });

  it('limits failed sign-ins per account and per address: 429 with retry-after, nothing written', async () => {
    // Per account (4): failures from anywhere add up; then even the right password waits.
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await login({ email: 'bob@acme.test', password: 'wrong password number x' })).statusCode).toBe(401);
    }
    const before = await sessionCount(bob.userId);
    const limited = await login({ email: 'bob@acme.test', password: PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ statusCode: 429, message: 'Too many requests!', error: 'Too Many Requests' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(await sessionCount(bob.userId)).toBe(before);
    expect((await login({ email: 'ada@acme.test', password: PASSWORD })).statusCode).toBe(200);

    // Per address (6): failures for any email add up; other addresses are not affected.
    const address = freshAddress();
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await login(
        { email: `guess${attempt}@acme.test`, password: 'wrong password number y' },
        { remoteAddress: address },
      );
      expect(response.statusCode).toBe(401);
    }
    const blocked = await login({ email: 'ada@acme.test', password: PASSWORD }, { remoteAddress: address });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await login({ email: 'ada@acme.test', password: PASSWORD })).statusCode).toBe(200);

    // Successful sign-ins never use the budget up (an office behind one address).
    const office = freshAddress();
    for (let attempt = 0; attempt < 7; attempt++) {
      expect((await login({ email: 'ada@acme.test', password: PASSWORD }, { remoteAddress: office })).statusCode).toBe(200);
    }
  });

  describe('attempts sent together are limited as if sent one after the other', () => {
    /** Each status and how often it came, for attempts whose order is not known. */
    const tally = (statuses: number[]) => {
      const counts: Record<number, number> = {};
      for (const status of statuses) {
        counts[status] = (counts[status] ?? 0) + 1;
      }
      return counts;
    };

    it('40 wrong passwords for one account at once: 4 are checked, 36 refused, as in a row', async () => {
      const together = await makeUser(harness, acme.organizationId, { email: 'together@acme.test' });
      const inRow = await makeUser(harness, acme.organizationId, { email: 'in-row@acme.test' });
      const hash = await hashPassword(PASSWORD);
      await setUserPassword(harness.db, together.userId, hash, TEST_NOW);
      await setUserPassword(harness.db, inRow.userId, hash, TEST_NOW);
      // On PostgreSQL, two server processes on the one database share the count.
      const processes = await serverProcesses(harness);
      try {
        const attempts = Array.from({ length: 40 }, (_, index) =>
          (processes.apps[index % processes.apps.length] as FastifyInstance).inject({
            method: 'POST',
            url: '/v1/auth/login',
            payload: { email: 'together@acme.test', password: `wrong password ${index}` },
            remoteAddress: freshAddress(),
          }),
        );
        const concurrent = (await Promise.all(attempts)).map((response) => response.statusCode);
        const sequential: number[] = [];
        for (let index = 0; index < 40; index++) {
          sequential.push((await login({ email: 'in-row@acme.test', password: `wrong password ${index}` })).statusCode);
        }
        expect(tally(sequential)).toEqual({ 401: 4, 429: 36 });
        expect(tally(concurrent)).toEqual(tally(sequential));
        // The budget is used up: the right password waits too, and no session was opened.
        expect((await login({ email: 'together@acme.test', password: PASSWORD })).statusCode).toBe(429);
        expect(await sessionCount(together.userId)).toBe(0);
      } finally {
        await processes.close();
      }
    });

    it('40 wrong sign-ins from one address at once, for 40 emails: 6 are checked, as in a row', async () => {
      const address = freshAddress();
      const statuses = (
        await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            login({ email: `spray${index}@acme.test`, password: 'not the password' }, { remoteAddress: address }),
          ),
        )
      ).map((response) => response.statusCode);
      expect(tally(statuses)).toEqual({ 401: 6, 429: 34 });
      expect((await login({ email: 'ada@acme.test', password: PASSWORD }, { remoteAddress: address })).statusCode).toBe(429);
    });

    it('a right password gives its attempt back; failures stay counted until the window ends', async () => {
      const giver = await makeUser(harness, acme.organizationId, { email: 'giver@acme.test' });
      await setUserPassword(harness.db, giver.userId, await hashPassword(PASSWORD), TEST_NOW);
      const attempt = (password: string) => login({ email: 'giver@acme.test', password });
      const statuses: number[] = [];
      for (const password of ['wrong 1', 'wrong 2', 'wrong 3', PASSWORD, PASSWORD, 'wrong 4', 'wrong 5', PASSWORD]) {
        statuses.push((await attempt(password)).statusCode);
      }
      // Three failures and two sign-ins leave one failure of the four; the fifth failure is refused.
      expect(statuses).toEqual([401, 401, 401, 200, 200, 401, 429, 429]);
      harness.clock.advance(15 * 60_000);
      expect((await attempt(PASSWORD)).statusCode).toBe(200);
    });
  });

  it('refuses a sign-in posted from another site', async () => {
    const response = await login({ email: 'ada@acme.test', password: PASSWORD }, { headers: { origin: 'https://evil.test' } });
    expect(response.statusCode).toBe(403);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(
      (await login({ email: 'ada@acme.test', password: PASSWORD }, { headers: { origin: 'http://localhost:3000' } })).statusCode,
    ).toBe(200);
  });
});
