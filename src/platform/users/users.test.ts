import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

describe.each(DIALECTS)('GET /v1/users/me on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme', adminEmail: 'ada@acme.test' });
    globex = await makeOrganization(harness, { name: 'Globex', adminEmail: 'ada@globex.test' });
  });
  afterAll(() => harness.close());

  it("returns the caller's user and organization in the platform envelope", async () => {
    const response = await harness.app.inject({ url: '/v1/users/me', headers: acme.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: true,
      message: 'Success',
      timestamp: TEST_NOW,
      data: {
        user: {
          id: acme.userId,
          name: expect.any(String),
          email: 'ada@acme.test',
          userType: 'ORG_ADMIN',
          avatarUrl: null,
          organizationId: acme.organizationId,
          createdAt: TEST_NOW,
          updatedAt: TEST_NOW,
        },
        organization: { id: acme.organizationId, name: 'Acme', createdAt: TEST_NOW, updatedAt: TEST_NOW },
      },
    });
    expect(acme.userId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('answers for the key of a member, scoped to its own organization', async () => {
    const member = await makeUser(harness, globex.organizationId, { email: 'bob@globex.test' });
    const body = (await harness.app.inject({ url: '/v1/users/me', headers: member.headers })).json();
    expect(body.data.user).toMatchObject({ id: member.userId, userType: 'ORG_MEMBER', organizationId: globex.organizationId });
    expect(body.data.organization.name).toBe('Globex');
  });

  it('echoes a sane x-request-id and generates one otherwise', async () => {
    const echoed = await harness.app.inject({ url: '/v1/users/me', headers: { ...acme.headers, 'x-request-id': 'trace-123' } });
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const generated = await harness.app.inject({ url: '/v1/users/me', headers: { ...acme.headers, 'x-request-id': 'bad id\n' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
