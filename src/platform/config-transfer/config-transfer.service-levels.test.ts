import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIG_TEST_ENV,
  type ConfiguredOrganization,
  configureOrganization,
  succeed,
} from '../../../test/config-organization.js';
import {
  type ConfiguredServiceLevels,
  configureServiceLevels,
  SERVICE_LEVELS_DOCUMENT,
} from '../../../test/config-service-levels.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

const AGENT_EMAIL = 'agent@config.test';
const ULID_ANYWHERE = /[0-9A-HJKMNP-TV-Z]{26}/;

interface Document {
  ticketStatuses: Record<string, unknown>[];
  satisfactionSettings: Record<string, unknown>[];
  slaPolicies: Record<string, unknown>[];
  [section: string]: unknown;
}

/**
 * SLA policies, the statuses' SLA pausing and the teams' survey settings in the configuration
 * document: exported by name, imported idempotently (matched by name, team and key, team), and
 * refused, whole and writing nothing, when they name what exists nowhere.
 */
describe.each(DIALECTS)('configuration export and import of service levels on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let configured: ConfiguredOrganization;
  let levels: ConfiguredServiceLevels;
  let exported: Document;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: CONFIG_TEST_ENV });
    acme = await makeOrganization(harness, { name: 'Acme' });
    const agent = await makeUser(harness, acme.organizationId, { name: 'Agent', email: AGENT_EMAIL });
    configured = await configureOrganization(harness.app, acme.headers, agent.userId);
    levels = await configureServiceLevels(harness.app, acme.headers, configured);
  }, 60_000);
  afterAll(() => harness?.close());

  const exportOf = async (organization: { headers: Record<string, string> }): Promise<Document> => {
    const response = await harness.app.inject({ url: '/v1/config/export', headers: organization.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const importInto = (organization: { headers: Record<string, string> }, document: unknown, query = '') =>
    harness.app.inject({
      method: 'POST',
      url: `/v1/config/import${query}`,
      headers: organization.headers,
      payload: document as object,
    });
  const call = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    succeed(harness.app, acme.headers, method, url, payload);
  const edited = (change: (document: Document) => void): Document => {
    const document = structuredClone(exported);
    change(document);
    return document;
  };

  /** Imports `document` as a dry run and for real: both refused alike, and nothing written. Answers the problems. */
  async function refused(document: unknown): Promise<string[]> {
    const messages: string[] = [];
    for (const query of ['?dryRun=true', '']) {
      const response = await importInto(acme, document, query);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, message: expect.any(String), error: 'Bad Request' });
      messages.push(response.json().message);
    }
    expect(messages[0]).toBe(messages[1]);
    expect(await exportOf(acme)).toEqual(exported);
    return (messages[0] ?? '').split('; ');
  }

  it('exports the policies in their order, statuses with their SLA pausing and survey settings, all by name', async () => {
    exported = await exportOf(acme);
    expect(exported.slaPolicies).toEqual(SERVICE_LEVELS_DOCUMENT.slaPolicies);
    expect(exported.ticketStatuses.filter((status) => status.team === 'Support')).toEqual(
      SERVICE_LEVELS_DOCUMENT.supportStatuses,
    );
    expect(exported.satisfactionSettings.find((settings) => settings.team === 'Support')).toEqual(
      SERVICE_LEVELS_DOCUMENT.supportSurveys,
    );
    expect(JSON.stringify(exported)).not.toMatch(ULID_ANYWHERE);
    expect((await importInto(acme, exported)).json().data).toEqual({ applied: true, changes: [] });
  });

  it('reproduces them in a fresh organization, whose export is the same; a second import changes nothing', async () => {
    const globex = await makeOrganization(harness, { name: 'Globex' });
    await makeUser(harness, globex.organizationId, { name: 'Their agent', email: AGENT_EMAIL });
    const response = await importInto(globex, exported);
    expect(response.statusCode, response.body).toBe(200);
    const changes = response.json().data.changes as { kind: string; name: string; action: string; fields: string[] }[];
    const serviceLevels = changes.filter((change) => ['ticketStatus', 'satisfactionSettings', 'slaPolicy'].includes(change.kind));
    expect(serviceLevels).toEqual([
      { kind: 'ticketStatus', name: 'Support / in_progress', action: 'update', fields: ['displayName', 'pausesSla'] },
      { kind: 'ticketStatus', name: 'Support / on_hold', action: 'update', fields: ['pausesSla'] },
      {
        kind: 'satisfactionSettings',
        name: 'Support',
        action: 'update',
        fields: ['enabled', 'delayMinutes', 'samplingShare', 'cooldownDays', 'skipWhen'],
      },
      {
        kind: 'slaPolicy',
        name: 'VIP support',
        action: 'create',
        fields: Object.keys(SERVICE_LEVELS_DOCUMENT.slaPolicies[0] ?? {}),
      },
      {
        kind: 'slaPolicy',
        name: 'Everyone',
        action: 'create',
        fields: Object.keys(SERVICE_LEVELS_DOCUMENT.slaPolicies[1] ?? {}),
      },
    ]);
    // Statuses and survey settings are applied before the policies, teams before all three.
    const order = changes.map((change) => change.kind);
    expect(order.indexOf('team')).toBeLessThan(order.indexOf('ticketStatus'));
    expect(order.lastIndexOf('teamTag')).toBeLessThan(order.indexOf('satisfactionSettings'));
    expect(await exportOf(globex)).toEqual(exported);
    expect((await importInto(globex, exported)).json().data).toEqual({ applied: true, changes: [] });

    // The policies hold Globex's ids: its team, and its custom field.
    const [vip] = await succeed(harness.app, globex.headers, 'GET', '/v1/sla-policies');
    const [team] = (await succeed(harness.app, globex.headers, 'GET', '/v1/teams?limit=100')).filter(
      (candidate: { name: string }) => candidate.name === 'Support',
    );
    expect(vip.andRules[0]).toBe(`{"field":"teamId","operator":"equals","value":"${team.id}"}`);
    expect(vip.orRules[0]).toMatch(/^\{"field":"customField\.[0-9A-Z]{26}","operator":"equals","value":"gold"\}$/);
    expect(vip.orRules[0]).not.toContain(configured.customField);
  });

  it('lists the changes on a dry run, writing nothing, then restores the export, policies swapping places', async () => {
    await call('POST', '/v1/sla-policies/reorder', { policyIds: [levels.policies.everyone, levels.policies.vip] });
    await call('PATCH', `/v1/sla-policies/${levels.policies.vip}`, { targets: { high: { firstReply: 15 } }, warningShare: 0.9 });
    await call('PATCH', `/v1/tickets/statuses/${levels.statuses.onHold}`, { pausesSla: true });
    await call('PUT', `/v1/teams/${configured.teams.support}/satisfaction-settings`, {
      enabled: true,
      delayMinutes: 60,
      samplingShare: 0.5,
      cooldownDays: 7,
      skipWhen: { tagIds: [], priorityIds: [levels.priorities.low, levels.priorities.urgent] },
    });
    await call('POST', '/v1/sla-policies', { name: 'Extra', targets: { low: { resolution: 600 } } });
    const changed = await exportOf(acme);
    expect(changed.slaPolicies.map((policy) => [policy.name, policy.position])).toEqual([
      ['Everyone', 0],
      ['VIP support', 1],
      ['Extra', 2],
    ]);

    const changes = [
      { kind: 'ticketStatus', name: 'Support / on_hold', action: 'update', fields: ['pausesSla'] },
      { kind: 'satisfactionSettings', name: 'Support', action: 'update', fields: ['skipWhen'] },
      { kind: 'slaPolicy', name: 'VIP support', action: 'update', fields: ['position', 'targets', 'warningShare'] },
      { kind: 'slaPolicy', name: 'Everyone', action: 'update', fields: ['position'] },
    ];
    const dryRun = await importInto(acme, exported, '?dryRun=true');
    expect(dryRun.statusCode, dryRun.body).toBe(200);
    expect(dryRun.json().data).toEqual({ applied: false, changes });
    expect(await exportOf(acme)).toEqual(changed);

    const applied = await importInto(acme, exported);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data).toEqual({ applied: true, changes });
    // Without prune the policy the document leaves out stays, after the document's.
    const after = await exportOf(acme);
    expect(after.slaPolicies.map((policy) => [policy.name, policy.position])).toEqual([
      ['VIP support', 0],
      ['Extra', 2],
      ['Everyone', 5],
    ]);
    const pruned = await importInto(acme, exported, '?prune=true');
    expect(pruned.json().data).toEqual({
      applied: true,
      changes: [{ kind: 'slaPolicy', name: 'Extra', action: 'delete', fields: [] }],
    });
    expect(await exportOf(acme)).toEqual(exported);
  });

  it('imports an older document without these sections, leaving them as they are, even with prune', async () => {
    const { ticketStatuses: _statuses, satisfactionSettings: _surveys, slaPolicies: _policies, ...older } = exported;
    for (const query of ['', '?prune=true']) {
      const response = await importInto(acme, older, query);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toEqual({ applied: true, changes: [] });
    }
    expect(await exportOf(acme)).toEqual(exported);
  });

  it('refuses conditions, statuses and survey settings that name what exists nowhere', async () => {
    const document = edited((doc) => {
      Object.assign(doc.slaPolicies[0] ?? {}, {
        andRules: [
          '{"field":"teamId","operator":"in","value":["Support","Ghost team"]}',
          '{"field":"tags","operator":"contains","value":"Ghost tag"}',
        ],
        orRules: ['{"field":"customField.nope","operator":"is_empty"}'],
      });
      doc.ticketStatuses.push({ team: 'Support', name: 'escalated', pausesSla: true });
      doc.ticketStatuses.push({ team: 'Gone', name: 'open', pausesSla: true });
      Object.assign(doc.satisfactionSettings[1] ?? {}, { skipWhen: { tags: ['Ghost tag'], priorities: ['critical'] } });
    });
    expect(await refused(document)).toEqual([
      'ticketStatuses.12.name names no status of Support: "escalated" is none of open, in_progress, on_hold, closed, the statuses every team has',
      'ticketStatuses.13.team names no team: "Gone" is neither in the document nor an active team of the organization',
      'satisfactionSettings.1.skipWhen.tags.0 names no tag of Support: "Ghost tag"',
      'satisfactionSettings.1.skipWhen.priorities.0 names no priority: "critical" is none of low, medium, high, urgent',
      'slaPolicies.0.andRules.0 names no team: "Ghost team" is neither in the document nor an active team of the organization',
      'slaPolicies.0.andRules.1 names no tag: "Ghost tag" is a tag of no team',
      'slaPolicies.0.orRules.0 names no ticket custom field: "nope" is no slug of one',
    ]);
  });

  it('refuses what the policy API refuses: bad conditions, a new policy without targets, a position twice', async () => {
    const document = edited((doc) => {
      Object.assign(doc.slaPolicies[1] ?? {}, { position: 0, orRules: ['{"field":"mood","operator":"equals","value":"x"}'] });
      doc.slaPolicies.push({ name: 'No targets' });
    });
    expect(await refused(document)).toEqual([
      'slaPolicies.1.orRules.0 has an unknown field "mood"',
      'slaPolicies.2.targets is required: the import creates No targets',
      'slaPolicies.1.position 0 is taken by slaPolicies.0: each policy has its own',
    ]);
    const schema = edited((doc) => {
      Object.assign(doc.slaPolicies[0] ?? {}, { warningShare: 1 });
      Object.assign(doc.ticketStatuses[0] ?? {}, { pausesSla: 'yes' });
    });
    expect(await refused(schema)).toEqual([
      'ticketStatuses.0.pausesSla must be a boolean',
      'slaPolicies.0.warningShare must be less than 1',
    ]);
  });

  it('rolls everything back when the policy service refuses a policy as it applies', async () => {
    // Support's on_hold would stop pausing first; the policy's reply target then exceeds its resolution.
    const document = edited((doc) => {
      Object.assign(doc.ticketStatuses.find((status) => status.team === 'Support' && status.name === 'on_hold') ?? {}, {
        pausesSla: true,
      });
      Object.assign(doc.slaPolicies[0] ?? {}, { targets: { high: { firstReply: 300, resolution: 240 } } });
    });
    expect(await refused(document)).toEqual([
      'slaPolicies.0 (VIP support): targets.high.firstReply (300) must not exceed targets.high.resolution (240)',
    ]);
  });
});
