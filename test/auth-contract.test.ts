import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../src/platform/users/api-key.service.js';
import { DIALECTS } from './dialects.js';
import { makeOrganization, type TestOrganization } from './factories.js';
import { buildTestApp, type TestApp } from './harness.js';

interface Operation {
  area: 'platform' | 'helpCenter' | 'agentStudio';
  method: string;
  url: string;
  /** Custom-field routes document their own error shape. */
  customFieldErrors?: boolean;
}

const DOCUMENTS = { platform: 'platform.json', helpCenter: 'help-center.json', agentStudio: 'agent-studio.json' } as const;

/** The 401 body each area must answer with. */
const UNAUTHENTICATED = {
  platform: { statusCode: 401, message: 'User is not authenticated!', error: 'Unauthorized' },
  helpCenter: { statusCode: 401, message: 'A valid x-api-key header is required' },
  agentStudio: { detail: 'Not authenticated' },
} as const;

/** A well-formed id for each path parameter, taken from the parameter's own pattern or format. */
function sampleId(schema: { pattern?: string; format?: string } | undefined): string {
  if (schema?.format === 'uuid') {
    return '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c';
  }
  if (schema?.pattern?.includes('0-9a-f')) {
    return '507f1f77bcf86cd799439011';
  }
  return '01KAAAAAAAAAAAAAAAAAAAAAAA';
}

/** Every operation the three OpenAPI documents publish: new routes are covered as they land. */
async function listOperations(harness: TestApp): Promise<Operation[]> {
  const operations: Operation[] = [];
  for (const [area, file] of Object.entries(DOCUMENTS) as [Operation['area'], string][]) {
    const document = (await harness.app.inject({ url: `/docs/${file}` })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string; schema?: { pattern?: string; format?: string } }[];
            responses?: Record<string, { content?: { 'application/json'?: { schema?: { title?: string } } } }>;
            security?: unknown[];
          }
        >
      >;
    };
    for (const [path, methods] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(methods)) {
        // Routes that document `security: []` are public by design (the OAuth callback).
        if (Array.isArray(operation.security) && operation.security.length === 0) {
          continue;
        }
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
          sampleId(operation.parameters?.find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema),
        );
        const unauthorized = operation.responses?.['401']?.content?.['application/json']?.schema?.title;
        operations.push({
          area,
          method: method.toUpperCase(),
          url,
          ...(unauthorized === 'CustomFieldError' ? { customFieldErrors: true } : {}),
        });
      }
    }
  }
  return operations;
}

describe.each(DIALECTS)('authentication contract on %s', (dialect) => {
  let harness: TestApp;
  let organization: TestOrganization;
  let operations: Operation[];

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    organization = await makeOrganization(harness);
    operations = await listOperations(harness);
  });
  afterAll(() => harness.close());

  it('publishes at least the platform identity route', () => {
    expect(operations).toContainEqual({ area: 'platform', method: 'GET', url: '/v1/users/me' });
  });

  const badKeys: [string, Record<string, string>][] = [
    ['a missing key', {}],
    ['an empty key', { 'x-api-key': '' }],
    ['a key of the wrong shape', { 'x-api-key': 'not-a-key' }],
    ['a well-formed unknown key', { 'x-api-key': `sbk_abcdefgh_${'A'.repeat(43)}` }],
  ];

  it.each(badKeys)('every published route rejects %s in its area shape', async (_, headers) => {
    for (const operation of operations) {
      const response = await harness.app.inject({ method: operation.method, url: operation.url, headers });
      expect(response.statusCode, `${operation.method} ${operation.url}`).toBe(401);
      const expected = operation.customFieldErrors
        ? { message: 'User is not authenticated!', statusCode: 401, timestamp: expect.any(String) }
        : UNAUTHENTICATED[operation.area];
      expect(response.json(), `${operation.method} ${operation.url}`).toEqual(expected);
    }
  });

  it.each([
    ['platform', '/v1/no-such-route'],
    ['agentStudio', '/api/v1/no-such-route'],
    ['helpCenter', '/no-such-route'],
  ] as const)('an unknown %s route asks for a key before saying it does not exist', async (area, url) => {
    const anonymous = await harness.app.inject({ url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(UNAUTHENTICATED[area]);
    const known = await harness.app.inject({ url, headers: organization.headers });
    expect(known.statusCode).toBe(404);
  });

  it('a revoked key stops working', async () => {
    const other = await makeOrganization(harness);
    expect((await harness.app.inject({ url: '/v1/users/me', headers: other.headers })).statusCode).toBe(200);
    await revokeApiKey(harness.db, harness.clock, other.apiKeyPrefix);
    const response = await harness.app.inject({ url: '/v1/users/me', headers: other.headers });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHENTICATED.platform);
  });

  it.each(['/healthz', '/readyz', '/docs/platform.json', '/docs/help-center.json', '/docs/agent-studio.json'])(
    '%s is served without a key',
    async (url) => {
      expect((await harness.app.inject({ url })).statusCode).toBe(200);
    },
  );

  it('serves the reference page for the three documents without a key', async () => {
    const response = await harness.app.inject({ url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    for (const file of Object.values(DOCUMENTS)) {
      expect(response.body).toContain(`/docs/${file}`);
    }
  });
});
