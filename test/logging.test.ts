import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createRequestLogger } from '../src/http/logging.js';
import { DIALECTS } from './dialects.js';
import { makeOrganization } from './factories.js';
import { buildTestApp, type TestApp } from './harness.js';

interface LogEntry {
  level: number;
  msg?: string;
  reqId?: string;
  method?: string;
  route?: string;
  url?: string;
  status?: number;
  latencyMs?: number;
  organizationId?: string;
  userId?: string;
  reason?: string;
  err?: unknown;
}

/** The app with the production logger at `info`, writing every line into memory. */
async function appWithCapturedLog(dialect: (typeof DIALECTS)[number]): Promise<{ harness: TestApp; lines: string[] }> {
  const lines: string[] = [];
  const log = createLogger({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(line) });
  const harness = await buildTestApp(dialect, { log });
  return { harness, lines };
}

const entries = (lines: string[]) => lines.map((line) => JSON.parse(line) as LogEntry);

describe.each(DIALECTS)('request logging on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  async function setUp() {
    const captured = await appWithCapturedLog(dialect);
    cleanups.push(() => captured.harness.close());
    return captured;
  }

  it('logs one line per authenticated request: method, route, status, latency, organization, user and request id; no secret', async () => {
    const { harness, lines } = await setUp();
    const organization = await makeOrganization(harness);
    const secret = organization.apiKey.slice(13);
    lines.length = 0;

    const response = await harness.app.inject({
      url: '/v1/users/me?verbose=1',
      headers: { ...organization.headers, authorization: 'Bearer other-secret-token', cookie: 'session=cookie-secret' },
    });
    expect(response.statusCode).toBe(200);

    const log = lines.join('');
    expect(log).not.toContain(organization.apiKey);
    expect(log).not.toContain(secret);
    expect(log).not.toContain('other-secret-token');
    expect(log).not.toContain('cookie-secret');
    expect(entries(lines).map((entry) => entry.msg)).toEqual(['request finished']);
    const [finished] = entries(lines);
    expect(finished).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/v1/users/me',
      url: '/v1/users/me?verbose=1',
      status: 200,
      organizationId: organization.organizationId,
      userId: organization.userId,
      reqId: response.headers['x-request-id'],
    });
    expect(finished?.latencyMs).toBeTypeOf('number');
    expect(finished?.reason).toBeUndefined();
  });

  it('puts the reason of a 4xx in its line at info level, with the route pattern', async () => {
    const { harness, lines } = await setUp();
    const organization = await makeOrganization(harness);
    lines.length = 0;

    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: organization.headers,
      payload: { name: 7 },
    });
    expect(response.statusCode).toBe(400);

    const finished = entries(lines).filter((entry) => entry.msg === 'request finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({
      level: 30,
      method: 'POST',
      route: '/v1/teams',
      status: 400,
      organizationId: organization.organizationId,
    });
    expect(finished[0]?.reason).toMatch(/name/);
  });

  it.each([
    ['a key of the wrong shape', 'not-a-key-but-still-a-secret'],
    ['a well-formed unknown key', `sbk_abcdefgh_${'Q'.repeat(43)}`],
  ])('logs nothing of %s on an unauthenticated request', async (_, value) => {
    const { harness, lines } = await setUp();

    const response = await harness.app.inject({ url: '/v1/users/me', headers: { 'x-api-key': value } });
    expect(response.statusCode).toBe(401);

    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain(value);
    expect(lines.join('')).not.toContain(value.slice(13));
    const [finished] = entries(lines);
    expect(finished).toMatchObject({ msg: 'request finished', method: 'GET', route: '/v1/users/me', status: 401 });
    expect(finished?.organizationId).toBeUndefined();
    expect(finished?.reason).toBeTypeOf('string');
  });

  it('logs a failing request (500) with its error but without the key', async () => {
    const { harness, lines } = await setUp();
    const organization = await makeOrganization(harness);
    await harness.db.destroy();
    lines.length = 0;

    const response = await harness.app.inject({ url: '/v1/users/me', headers: organization.headers });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('destroyed');

    const log = lines.join('');
    expect(log).not.toContain(organization.apiKey);
    expect(log).not.toContain(organization.apiKey.slice(13));
    const failed = entries(lines).find((entry) => entry.msg === 'request failed');
    expect(failed?.level).toBe(50);
    expect(failed?.err).toBeDefined();
    expect(failed?.reqId).toBe(response.headers['x-request-id']);
    const finished = entries(lines).find((entry) => entry.msg === 'request finished');
    expect(finished).toMatchObject({ level: 50, status: 500, reqId: response.headers['x-request-id'] });
  });
});

describe("a request's logger", () => {
  it('writes what pino writes for the request, and makes its child only for a line at an enabled level', () => {
    const lines: string[] = [];
    const parent = createLogger({ LOG_LEVEL: 'warn' }, { write: (line: string) => void lines.push(line) });
    let children = 0;
    const counted = Object.create(parent, {
      child: {
        value: (...args: Parameters<typeof parent.child>) => {
          children += 1;
          return parent.child(...args);
        },
      },
    }) as typeof parent;
    const log = createRequestLogger(counted, { reqId: 'req-1' }, {});
    log.info({ route: '/v1/tickets' }, 'below the level');
    log.debug('below the level');
    expect(children).toBe(0);
    expect(log.level).toBe('warn');
    log.warn({ reason: 'slow' }, 'above the level');
    log.error('and another');
    expect(children).toBe(1);
    expect(entries(lines)).toMatchObject([
      { level: 40, reqId: 'req-1', msg: 'above the level' },
      { level: 50, reqId: 'req-1', msg: 'and another' },
    ]);
    // Its level is its own once set, as a child's is.
    log.level = 'debug';
    log.debug('now written');
    expect(parent.level).toBe('warn');
    expect(entries(lines).at(-1)).toMatchObject({ level: 20, reqId: 'req-1', msg: 'now written' });
    // A route's own level is the child's from the start.
    createRequestLogger(parent, { reqId: 'req-2' }, { level: 'debug' }).debug('at the route level');
    expect(entries(lines).at(-1)).toMatchObject({ level: 20, reqId: 'req-2', msg: 'at the route level' });
    log.child({ step: 'inner' }).warn('from a child of its own');
    expect(entries(lines).at(-1)).toMatchObject({ reqId: 'req-1', step: 'inner', msg: 'from a child of its own' });
  });
});
