import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

const DEFAULT_WIDGET = {
  enabled: false,
  allowedOrigins: [],
  greeting: 'Hi! How can we help?',
  launcherColor: '#2563eb',
  position: 'right',
  agentId: null,
  handoffTeamId: null,
  identityVerificationRequired: false,
  secretSet: false,
};
const UNKNOWN_UUID = '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c';
const UNKNOWN_ULID = '01JD0000000000000000000000';

describe.each(DIALECTS)('messenger widget settings on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const helpCenter = async (name: string, headers = acme.headers) => {
    const response = await call('POST', '/help-centers', { name }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { _id: string; slug: string };
  };
  const agent = async (headers = acme.headers) => {
    const response = await call('POST', '/api/v1/agents', { name: 'Helper' }, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().id as string;
  };
  const stored = async (id: string) => (await call('GET', `/help-centers/${id}`)).json().data;
  const eventCount = async (organizationId: string) =>
    Number(
      (
        await harness.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('organization_id', '=', organizationId)
          .where('type', '=', 'help_center.updated')
          .executeTakeFirstOrThrow()
      ).count,
    );

  it('answers the defaults, sets every setting in canonical form, merges partial updates and records the change', async () => {
    const { _id: id } = await helpCenter('Widget Help');
    expect((await stored(id)).widget).toEqual(DEFAULT_WIDGET);
    const agentId = await agent();
    const team = await makeTeam(harness, acme);
    const before = await eventCount(acme.organizationId);
    const set = await call('PATCH', `/help-centers/${id}`, {
      widget: {
        enabled: true,
        allowedOrigins: [
          'https://Shop.Example.com',
          'http://localhost:8080/',
          'https://shop.example.com:443',
          'https://xn--bcher-kva.example',
        ],
        greeting: '  Hello there  ',
        launcherColor: '#AABBCC',
        position: 'left',
        agentId,
        handoffTeamId: team.teamId,
        identityVerificationRequired: true,
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    const widget = {
      enabled: true,
      allowedOrigins: ['https://shop.example.com', 'http://localhost:8080', 'https://xn--bcher-kva.example'],
      greeting: 'Hello there',
      launcherColor: '#aabbcc',
      position: 'left',
      agentId,
      handoffTeamId: team.teamId,
      identityVerificationRequired: true,
      secretSet: false,
    };
    expect(set.json().data.widget).toEqual(widget);
    expect((await stored(id)).widget).toEqual(widget);
    expect(await eventCount(acme.organizationId)).toBe(before + 1);

    const partial = await call('PATCH', `/help-centers/${id}`, { widget: { greeting: 'Ask away', agentId: null } });
    expect(partial.statusCode, partial.body).toBe(200);
    expect(partial.json().data.widget).toEqual({ ...widget, greeting: 'Ask away', agentId: null });
    const listed = (await call('GET', '/help-centers?limit=100')).json().data as { _id: string; widget: unknown }[];
    expect(listed.find((entry) => entry._id === id)?.widget).toEqual({ ...widget, greeting: 'Ask away', agentId: null });
  });

  it.each([
    ['an origin of another scheme', { allowedOrigins: ['ftp://shop.example.com'] }, 'widget.allowedOrigins.0'],
    ['an origin without a scheme', { allowedOrigins: ['shop.example.com'] }, 'widget.allowedOrigins.0'],
    [
      'an origin with a path',
      { allowedOrigins: ['https://shop.example.com', 'https://shop.example.com/store'] },
      'widget.allowedOrigins.1',
    ],
    ['an origin with a query', { allowedOrigins: ['https://shop.example.com?x=1'] }, 'widget.allowedOrigins.0'],
    ['an origin with credentials', { allowedOrigins: ['https://user:pw@shop.example.com'] }, 'widget.allowedOrigins.0'],
    ['a wildcard origin', { allowedOrigins: ['https://*.example.com'] }, 'widget.allowedOrigins.0'],
    ['a CSP keyword', { allowedOrigins: ["'self'"] }, 'widget.allowedOrigins.0'],
    ['21 origins', { allowedOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) }, 'allowedOrigins'],
    ['a greeting of 281 characters', { greeting: 'g'.repeat(281) }, 'greeting'],
    ['a colour name', { launcherColor: 'red' }, 'launcherColor'],
    ['another position', { position: 'top' }, 'position'],
    ['an agent id that is no UUID', { agentId: 'agent-1' }, 'agentId'],
    ['a team id that is no ULID', { handoffTeamId: 'team-1' }, 'handoffTeamId'],
    ['a non-boolean flag', { identityVerificationRequired: 'yes' }, 'identityVerificationRequired'],
    ['an unknown setting', { colour: '#000000' }, 'colour'],
  ])('refuses %s with a 400 naming it, writing nothing', async (_name, widget, field) => {
    const { _id: id } = await helpCenter('Invalid Widget');
    const before = await stored(id);
    const response = await call('PATCH', `/help-centers/${id}`, { widget: { enabled: true, ...widget } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(field);
    expect(await stored(id)).toEqual(before);
  });

  it("refuses another organization's or an unknown agent or team with a 404, writing nothing", async () => {
    const { _id: id } = await helpCenter('Foreign Widget');
    const before = await stored(id);
    const foreignAgent = await agent(globex.headers);
    const foreignTeam = await makeTeam(harness, globex);
    for (const [widget, message] of [
      [{ agentId: foreignAgent }, 'Agent not found'],
      [{ agentId: UNKNOWN_UUID }, 'Agent not found'],
      [{ handoffTeamId: foreignTeam.teamId }, 'Team not found'],
      [{ handoffTeamId: UNKNOWN_ULID }, 'Team not found'],
    ] as const) {
      const response = await call('PATCH', `/help-centers/${id}`, { widget: { enabled: true, ...widget } });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message });
    }
    expect(await stored(id)).toEqual(before);
    // Another organization's help center is not found either.
    const theirs = await call('PATCH', `/help-centers/${id}`, { widget: { enabled: true } }, globex.headers);
    expect(theirs.statusCode).toBe(404);
    expect((await call('POST', `/help-centers/${id}/widget/secret`, undefined, globex.headers)).statusCode).toBe(404);
    expect(await stored(id)).toEqual(before);
  });

  it('makes the widget secret (admins), answers it once, never shows it, and rotates it', async () => {
    const { _id: id } = await helpCenter('Secret Widget');
    const member = await makeUser(harness, acme.organizationId);
    const refused = await call('POST', `/help-centers/${id}/widget/secret`, undefined, member.headers);
    expect(refused.statusCode).toBe(403);
    expect((await stored(id)).widget.secretSet).toBe(false);

    const before = await eventCount(acme.organizationId);
    const made = await call('POST', `/help-centers/${id}/widget/secret`);
    expect(made.statusCode, made.body).toBe(201);
    const { secret } = made.json().data as { secret: string };
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await eventCount(acme.organizationId)).toBe(before + 1);
    const read = await call('GET', `/help-centers/${id}`);
    expect(read.json().data.widget.secretSet).toBe(true);
    expect(read.body).not.toContain(secret);
    const row = await harness.db
      .selectFrom('help_centers')
      .select('widget_secret_sealed')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.widget_secret_sealed).not.toContain(secret);

    const rotated = (await call('POST', `/help-centers/${id}/widget/secret`)).json().data.secret as string;
    expect(rotated).not.toBe(secret);
    expect((await stored(id)).widget.secretSet).toBe(true);
  });
});
