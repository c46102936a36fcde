import { randomInt } from 'node:crypto';
import { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { setUserPassword } from '../src/platform/auth/credential.repository.js';
import { hashPassword } from '../src/platform/auth/password.js';
import { signInBrowser } from './browser-session.js';
import { DIALECTS } from './dialects.js';
import { makeOrganization, makeUser } from './factories.js';
import { buildTestApp, type TestApp } from './harness.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis server answers on the default port (CI starts one; see `.ci/run`). */
async function redisIsUp(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(6379, '127.0.0.1');
  });
}
const REDIS_UP = await redisIsUp();

/** A client address of its own per test, so counters (in Redis too) never carry over between tests or runs. */
const freshAddress = () => `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;
const BAD_KEY = `sbk_abcdefgh_${'Q'.repeat(43)}`;

describe('rate-limit settings', () => {
  it('the default limit is on: 30 bad keys a minute per address', async () => {
    expect(parseConfig({}).AUTH_FAILURES_PER_MINUTE).toBe(30);
    expect(parseConfig({}).RATE_LIMIT_PER_MINUTE).toBeUndefined();
  });
});

describe.each(DIALECTS)('rate limits on %s', (dialect) => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  async function build(env: Record<string, string>) {
    const harness = await buildTestApp(dialect, { env });
    apps.push(harness);
    return harness;
  }

  it('bad keys from one address: 401 up to the limit, then 429 with retry-after in each area shape; valid keys still work', async () => {
    const harness = await build({ AUTH_FAILURES_PER_MINUTE: '5' });
    const organization = await makeOrganization(harness);
    const remoteAddress = freshAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const response = await harness.app.inject({ url: '/v1/users/me', headers: { 'x-api-key': BAD_KEY }, remoteAddress });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);

    const platform = await harness.app.inject({ url: '/v1/users/me', remoteAddress });
    expect(platform.statusCode).toBe(429);
    expect(Number(platform.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(platform.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(platform.json()).toEqual({ statusCode: 429, message: 'Too many requests!', error: 'Too Many Requests' });
    const agentStudio = await harness.app.inject({ url: '/api/v1/agents', remoteAddress });
    expect(agentStudio.statusCode).toBe(429);
    expect(agentStudio.json()).toEqual({ detail: 'Too many requests without a valid API key; retry later' });
    const helpCenter = await harness.app.inject({ url: '/help-centers', remoteAddress });
    expect(helpCenter.statusCode).toBe(429);
    expect(helpCenter.json()).toEqual({ statusCode: 429, message: 'Too many requests without a valid API key; retry later' });
    expect(helpCenter.headers['retry-after']).toBeDefined();

    const valid = await harness.app.inject({ url: '/v1/users/me', headers: organization.headers, remoteAddress });
    expect(valid.statusCode).toBe(200);
    const elsewhere = await harness.app.inject({
      url: '/v1/users/me',
      headers: { 'x-api-key': BAD_KEY },
      remoteAddress: freshAddress(),
    });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('with a limit of 1 the second failure is a 429 whose retry-after is within the minute', async () => {
    const harness = await build({ AUTH_FAILURES_PER_MINUTE: '1' });
    const remoteAddress = freshAddress();
    await harness.app.inject({ url: '/v1/users/me', remoteAddress });
    const limited = await harness.app.inject({ url: '/v1/users/me', remoteAddress });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('per-key limits (RATE_LIMIT_PER_MINUTE) count each key on its own; off by default', async () => {
    const harness = await build({ RATE_LIMIT_PER_MINUTE: '3' });
    const acme = await makeOrganization(harness);
    const globex = await makeOrganization(harness);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push((await harness.app.inject({ url: '/v1/users/me', headers: acme.headers })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await harness.app.inject({ url: '/api/v1/agents', headers: acme.headers });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: 'Too many requests for this API key; retry later' });
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await harness.app.inject({ url: '/v1/users/me', headers: globex.headers })).statusCode).toBe(200);

    const unlimited = await build({});
    const initech = await makeOrganization(unlimited);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await unlimited.app.inject({ url: '/v1/users/me', headers: initech.headers })).statusCode).toBe(200);
    }
  });

  it.runIf(REDIS_UP || process.env.CI)('with REDIS_URL, two processes share one counter per address', async () => {
    const first = await build({ AUTH_FAILURES_PER_MINUTE: '4', REDIS_URL });
    const second = await build({ AUTH_FAILURES_PER_MINUTE: '4', REDIS_URL });
    const remoteAddress = freshAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const app = attempt % 2 === 0 ? first : second;
      statuses.push((await app.app.inject({ url: '/v1/users/me', headers: { 'x-api-key': BAD_KEY }, remoteAddress })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it.runIf(REDIS_UP || process.env.CI)('with REDIS_URL, two processes share the failed sign-ins of an email', async () => {
    const env = { SIGN_IN_FAILURES_PER_ACCOUNT: '3', SIGN_IN_FAILURES_PER_ADDRESS: '0', REDIS_URL };
    const [first, second] = [await build(env), await build(env)];
    // An email of its own per run: Redis keeps the counter for 15 minutes.
    const email = `guess-${randomInt(1, 1_000_000_000)}@example.com`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const harness = attempt % 2 === 0 ? first : second;
      const response = await harness.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email, password: 'not the password' },
        remoteAddress: freshAddress(),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it.runIf(REDIS_UP || process.env.CI)(
    'with REDIS_URL, 40 wrong sign-ins for one email at once, across two processes, are limited as 40 in a row',
    async () => {
      const env = { SIGN_IN_FAILURES_PER_ACCOUNT: '5', SIGN_IN_FAILURES_PER_ADDRESS: '0', REDIS_URL };
      const [first, second] = [await build(env), await build(env)];
      // Emails of their own per run: Redis keeps the counters for 15 minutes.
      const run = randomInt(1, 1_000_000_000);
      const attempt = (harness: TestApp, email: string) =>
        harness.app.inject({
          method: 'POST',
          url: '/v1/auth/login',
          payload: { email, password: 'not the password' },
          remoteAddress: freshAddress(),
        });
      const together = await Promise.all(
        Array.from({ length: 40 }, (_, index) => attempt(index % 2 === 0 ? first : second, `together-${run}@example.com`)),
      );
      const inRow: number[] = [];
      for (let index = 0; index < 40; index++) {
        inRow.push((await attempt(index % 2 === 0 ? first : second, `in-row-${run}@example.com`)).statusCode);
      }
      const count = (statuses: number[], status: number) => statuses.filter((value) => value === status).length;
      expect([count(inRow, 401), count(inRow, 429)]).toEqual([5, 35]);
      const statuses = together.map((response) => response.statusCode);
      expect([count(statuses, 401), count(statuses, 429)]).toEqual([5, 35]);
    },
  );

  it('the per-caller limit counts a signed-in session like a key', async () => {
    const harness = await build({ RATE_LIMIT_PER_MINUTE: '2' });
    const organization = await makeOrganization(harness);
    const user = await makeUser(harness, organization.organizationId, { email: 'limited@example.com' });
    await setUserPassword(harness.db, user.userId, await hashPassword('a password for the limit'), null);
    const browser = await signInBrowser(harness.app, 'limited@example.com', 'a password for the limit');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      statuses.push((await harness.app.inject({ url: '/v1/users/me', headers: { cookie: browser.cookie } })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect((await harness.app.inject({ url: '/v1/users/me', headers: user.headers })).statusCode).toBe(200);
  });

  it('an unreachable Redis does not block requests: nothing is counted', async () => {
    const harness = await build({ AUTH_FAILURES_PER_MINUTE: '1', REDIS_URL: 'redis://127.0.0.1:1' });
    const organization = await makeOrganization(harness);
    const remoteAddress = freshAddress();
    expect((await harness.app.inject({ url: '/v1/users/me', remoteAddress })).statusCode).toBe(401);
    expect((await harness.app.inject({ url: '/v1/users/me', remoteAddress })).statusCode).toBe(401);
    expect((await harness.app.inject({ url: '/v1/users/me', headers: organization.headers, remoteAddress })).statusCode).toBe(
      200,
    );
  });
});
