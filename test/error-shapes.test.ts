import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './dialects.js';
import { makeOrganization, type TestOrganization } from './factories.js';
import { buildTestApp, type TestApp } from './harness.js';

/** One unknown route per area: the area's error mapper answers whatever goes wrong there. */
const AREAS = [
  { area: 'platform', url: '/v1/anything' },
  { area: 'agentStudio', url: '/api/v1/anything' },
  { area: 'helpCenter', url: '/anything' },
] as const;

function expectedBody(area: (typeof AREAS)[number]['area'], status: number, message: string) {
  const reason: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 413: 'Payload Too Large' };
  switch (area) {
    case 'platform':
      return { statusCode: status, message, error: reason[status] };
    case 'helpCenter':
      return { statusCode: status, message };
    case 'agentStudio':
      return { detail: message };
  }
}

describe.each(DIALECTS)('error shapes on %s', (dialect) => {
  let harness: TestApp;
  let organization: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { BODY_LIMIT_BYTES: '256' } });
    organization = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  it.each(AREAS)('$area: an unknown route is a 404 in the area shape', async ({ area, url }) => {
    const response = await harness.app.inject({ url, headers: organization.headers });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(expectedBody(area, 404, `Cannot GET ${url}`));
  });

  it.each(AREAS)('$area: malformed JSON is refused in the area shape', async ({ area, url }) => {
    const response = await harness.app.inject({
      method: 'POST',
      url,
      headers: { ...organization.headers, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    if (area === 'agentStudio') {
      // FastAPI's answer: 422, located at the character where decoding failed.
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: [{ loc: ['body', 9], msg: 'JSON decode error', type: 'json_invalid' }] });
    } else {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expectedBody(area, 400, 'Request body is not valid JSON'));
    }
  });

  it.each(AREAS)('$area: a body over BODY_LIMIT_BYTES is a 413 in the area shape', async ({ area, url }) => {
    const response = await harness.app.inject({
      method: 'POST',
      url,
      headers: { ...organization.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(300) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual(expectedBody(area, 413, 'Request body is larger than the allowed limit'));
  });
});

describe.each(DIALECTS)('faults on %s', (dialect) => {
  let harness: TestApp;
  let organization: TestOrganization;
  const logged: string[] = [];

  beforeAll(async () => {
    const { pino } = await import('pino');
    const log = pino({ level: 'error' }, { write: (line: string) => logged.push(line) });
    harness = await buildTestApp(dialect, { log });
    organization = await makeOrganization(harness);
    // Break the database under the running app: every key lookup now fails inside the driver.
    await harness.db.destroy();
  });
  afterAll(() => harness.close().catch(() => undefined));

  it.each([
    ['/v1/users/me', { statusCode: 500, message: 'Something went wrong!', error: 'Internal Server Error' }],
    ['/api/v1/anything', { detail: 'Internal Server Error' }],
    ['/anything', { statusCode: 500, message: 'Internal server error' }],
  ])('%s answers 500 without internals and logs the fault', async (url, body) => {
    const before = logged.length;
    const response = await harness.app.inject({ url, headers: { ...organization.headers, 'x-request-id': 'fault-1' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual(body);
    expect(response.body).not.toMatch(/stack|driver|destroy|select/i);
    const line = logged.slice(before).join('\n');
    expect(line).toContain('fault-1');
    expect(line).toContain('request failed');
  });

  it('readiness reports the broken database as 503', async () => {
    const response = await harness.app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
  });
});
