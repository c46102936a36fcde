import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIG_TEST_ENV,
  type ConfiguredOrganization,
  configureOrganization,
  IMAP_PASSWORD,
  succeed,
  WEBHOOK_URL,
} from '../../../test/config-organization.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { IMAP_PASSWORD_NEEDED } from '../mailboxes/mailbox.service.js';
import { DEFAULT_DAILY_CONFIG } from '../team-configurations/team-configuration.defaults.js';

const AGENT_EMAIL = 'agent@config.test';
const ULID_ANYWHERE = /[0-9A-HJKMNP-TV-Z]{26}/;

const DEFAULT_CONFIGURATION = {
  timezone: 'UTC',
  routingRespectsTimezone: false,
  routingRespectsUserCapacity: false,
  routingRespectsUserTimezone: false,
  routingRespectsUserAvailability: false,
  routingRespectsUserBusinessHours: false,
  userRoutingStrategy: 'manual',
  fallbackSubTeam: null,
  holidays: [],
  commonDailyConfig: false,
  commonSlots: [{ start: '09:00', end: '17:00' }],
  dailyConfig: DEFAULT_DAILY_CONFIG,
};

const FIELD_DEFAULTS = {
  team: null,
  description: null,
  isActive: true,
  placeholderText: null,
  hintText: null,
  defaultValue: null,
  regexForValidation: null,
  mandatoryOnCreation: false,
  mandatoryOnClose: false,
  visibleToCustomer: false,
  editableByCustomer: false,
  autoAddToAllForms: false,
  lookup: null,
};

/** The statuses every team has from the start, as the document names them. */
const statusesOf = (team: string) => [
  { team, name: 'open', displayName: 'Open', pausesSla: false },
  { team, name: 'in_progress', displayName: 'In progress', pausesSla: false },
  { team, name: 'on_hold', displayName: 'On hold', pausesSla: true },
  { team, name: 'closed', displayName: 'Closed', pausesSla: false },
];
/** A team's survey settings before any are set: off. */
const surveysOff = (team: string) => ({
  team,
  enabled: false,
  delayMinutes: 0,
  samplingShare: 1,
  cooldownDays: 0,
  skipWhen: { tags: [], priorities: [] },
});

/** What `configureOrganization` makes, as the document names it. */
const EXPECTED_DOCUMENT = {
  version: 1,
  teams: [
    { name: 'Billing', identifier: 'BIL', parent: null, description: null, icon: null, color: null, isPrivate: true },
    {
      name: 'Support',
      identifier: 'SUP',
      parent: null,
      description: 'First line',
      icon: 'inbox',
      color: '#1F74DB',
      isPrivate: false,
    },
    { name: 'Tier 2', identifier: 'TWO', parent: 'Support', description: null, icon: null, color: null, isPrivate: false },
  ],
  teamTags: [
    { team: 'Support', name: 'German', color: null, type: 'skills', description: null },
    { team: 'Support', name: 'VIP', color: '#FF0000', type: 'ticket', description: 'Pays more' },
  ],
  teamConfigurations: [
    { team: 'Billing', ...DEFAULT_CONFIGURATION },
    {
      team: 'Support',
      ...DEFAULT_CONFIGURATION,
      timezone: 'Europe/Paris',
      holidays: ['25-12', '01-05-2026'],
      routingRespectsTimezone: true,
      userRoutingStrategy: 'round_robin',
      fallbackSubTeam: 'Tier 2',
      dailyConfig: { ...DEFAULT_DAILY_CONFIG, saturday: { isActive: true, slots: [{ start: '10:00', end: '14:00' }] } },
    },
    { team: 'Tier 2', ...DEFAULT_CONFIGURATION },
  ],
  ticketStatuses: [...statusesOf('Billing'), ...statusesOf('Support'), ...statusesOf('Tier 2')],
  satisfactionSettings: [surveysOff('Billing'), surveysOff('Support'), surveysOff('Tier 2')],
  routingRules: [
    {
      team: 'Support',
      name: 'Gold plans to billing',
      description: null,
      evaluationOrder: 1,
      resultTeam: 'Billing',
      fallbackTeam: 'Tier 2',
      andRules: [
        '{"field":"customField.plan","operator":"equals","value":"gold"}',
        '{"field":"priority","operator":"in","value":["high","urgent"]}',
      ],
      orRules: [
        '{"field":"title","operator":"contains","value":"invoice"}',
        '{"field":"tags","operator":"contains","value":"VIP"}',
      ],
    },
    {
      team: 'Support',
      name: 'Everything else',
      description: null,
      evaluationOrder: 2,
      resultTeam: 'Support',
      fallbackTeam: null,
      andRules: [],
      orRules: [],
    },
  ],
  customFields: [
    {
      ...FIELD_DEFAULTS,
      source: 'account',
      slug: 'region',
      name: 'Region',
      fieldType: 'single_line',
      options: [],
      metadata: { group: 'geo', tokenLimit: 3 },
      regexForValidation: '^[A-Z]{2}$',
    },
    {
      ...FIELD_DEFAULTS,
      source: 'ticket',
      slug: 'plan',
      name: 'Plan',
      fieldType: 'single_choice',
      options: ['gold', 'silver'],
      metadata: {},
      hintText: 'The plan on the invoice',
      mandatoryOnClose: true,
    },
  ],
  slaPolicies: [],
  macros: [
    {
      team: 'Support',
      name: 'Refund done',
      description: 'When the refund has gone through',
      content: 'We refunded you, {{ticket.identifier}}.',
      commentVisibility: 'public',
      shouldSendEmail: true,
      actions: { statusName: 'closed', assignedAgent: AGENT_EMAIL, addTags: ['VIP'] },
    },
  ],
  views: [
    {
      team: 'Support',
      name: 'Gold and open',
      filters: {
        teams: ['Support', 'Billing'],
        isClosed: false,
        assignedAgent: AGENT_EMAIL,
        tags: [{ team: 'Support', name: 'VIP' }],
        customFields: { plan: 'gold' },
      },
      sort: '-updatedAt',
    },
  ],
  mailboxes: [
    {
      address: 'help@config.test',
      team: 'Support',
      displayName: 'Help desk',
      delivery: 'imap',
      isDefault: true,
      imap: { host: 'imap.example.com', port: 993, tls: true, username: 'help', folder: 'INBOX', processedFolder: 'Done' },
    },
  ],
  webhooks: [{ url: WEBHOOK_URL, eventTypes: ['ticket.created'], description: 'CRM', enabled: true }],
};

describe.each(DIALECTS)('configuration export and import on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let configured: ConfiguredOrganization;
  let exported: Record<string, unknown>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: CONFIG_TEST_ENV });
    acme = await makeOrganization(harness, { name: 'Acme' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia Member' });
    const agent = await makeUser(harness, acme.organizationId, { name: 'Agent', email: AGENT_EMAIL });
    configured = await configureOrganization(harness.app, acme.headers, agent.userId);
  }, 60_000);
  afterAll(() => harness?.close());

  const exportOf = async (organization: { headers: Record<string, string> }) => {
    const response = await harness.app.inject({ url: '/v1/config/export', headers: organization.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const importInto = (organization: { headers: Record<string, string> }, document: unknown, query = '') =>
    harness.app.inject({
      method: 'POST',
      url: `/v1/config/import${query}`,
      headers: organization.headers,
      payload: document as object,
    });
  const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    succeed(harness.app, acme.headers, method, url, payload);

  it('exports the set-up in the envelope, objects named and never by id, without a secret', async () => {
    const body = await exportOf(acme);
    expect(body).toEqual({ status: true, message: 'Success', timestamp: TEST_NOW, data: EXPECTED_DOCUMENT });
    exported = body.data;
    const text = JSON.stringify(body);
    for (const secret of configured.secrets) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain(IMAP_PASSWORD);
    expect(text).not.toMatch(/password|secret|apiKey|whsec_/i);
    expect(text).not.toMatch(ULID_ANYWHERE);
  });

  it('changes nothing when a document just exported is imported again, dry run or not', async () => {
    for (const query of ['?dryRun=true', '']) {
      const response = await importInto(acme, exported, query);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toEqual({ applied: query === '', changes: [] });
    }
    // What the API stores in another case (identifiers upper, addresses lower) is the same.
    const recased = structuredClone(exported) as typeof EXPECTED_DOCUMENT;
    Object.assign(recased.teams[1] ?? {}, { identifier: 'sup' });
    Object.assign(recased.mailboxes[0] ?? {}, { address: 'Help@Config.test' });
    expect((await importInto(acme, recased)).json().data).toEqual({ applied: true, changes: [] });
    expect((await exportOf(acme)).data).toEqual(exported);
  });

  it('lists the changes of a dry run and writes nothing, then applies them and restores the export', async () => {
    const { support } = configured.teams;
    await call('PATCH', `/v1/teams/${support}`, { color: '#000000' });
    await call('DELETE', `/v1/teams/${support}/tags/${configured.tags.vip}`);
    await call('PATCH', `/v1/teams/${support}/configurations`, { timezone: 'UTC', holidays: [] });
    // The two rules swap places, as the import must swap them back.
    await call('PATCH', `/v1/teams/${support}/routing/${configured.rules.gold}`, { evaluationOrder: 7 });
    await call('PATCH', `/v1/teams/${support}/routing/${configured.rules.rest}`, { evaluationOrder: 1 });
    await call('PATCH', `/v1/teams/${support}/routing/${configured.rules.gold}`, { evaluationOrder: 2 });
    const [field] = await call('PATCH', '/v1/custom-field', {
      fields: [{ fieldId: configured.customField, version: 1, updates: { options: [{ value: 'gold' }, { value: 'bronze' }] } }],
    });
    expect(field.version).toBe(2);
    await call('PATCH', `/v1/mailboxes/${configured.mailbox}`, { displayName: 'Helpdesk', isDefault: false });
    await call('DELETE', `/v1/webhooks/${configured.webhook}`);
    const changed = (await exportOf(acme)).data;

    const dryRun = await importInto(acme, exported, '?dryRun=true');
    expect(dryRun.statusCode, dryRun.body).toBe(200);
    const changes = [
      { kind: 'team', name: 'Support', action: 'update', fields: ['color'] },
      { kind: 'teamConfiguration', name: 'Support', action: 'update', fields: ['timezone', 'holidays'] },
      { kind: 'customField', name: 'ticket / plan', action: 'update', fields: ['options'] },
      { kind: 'teamTag', name: 'Support / VIP', action: 'create', fields: ['team', 'name', 'color', 'type', 'description'] },
      { kind: 'routingRule', name: 'Support / Gold plans to billing', action: 'update', fields: ['evaluationOrder'] },
      { kind: 'routingRule', name: 'Support / Everything else', action: 'update', fields: ['evaluationOrder'] },
      { kind: 'macro', name: 'Support / Refund done', action: 'update', fields: ['actions'] },
      { kind: 'view', name: 'Support / Gold and open', action: 'update', fields: ['filters'] },
      { kind: 'mailbox', name: 'help@config.test', action: 'update', fields: ['displayName', 'isDefault'] },
      { kind: 'webhook', name: WEBHOOK_URL, action: 'create', fields: ['url', 'eventTypes', 'description', 'enabled'] },
    ];
    expect(dryRun.json()).toEqual({ status: true, message: 'Success', timestamp: TEST_NOW, data: { applied: false, changes } });
    expect((await exportOf(acme)).data).toEqual(changed);

    const applied = await importInto(acme, exported);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data).toEqual({ applied: true, changes });
    expect((await exportOf(acme)).data).toEqual(exported);
    expect((await importInto(acme, exported)).json().data).toEqual({ applied: true, changes: [] });
  });

  it('reproduces the set-up in a fresh organization, creating everything; its IMAP mailbox waits for a password', async () => {
    const globex = await makeOrganization(harness, { name: 'Globex' });
    await makeUser(harness, globex.organizationId, { name: 'Their agent', email: AGENT_EMAIL });
    expect((await exportOf(globex)).data).toEqual({
      version: 1,
      teams: [],
      teamTags: [],
      teamConfigurations: [],
      ticketStatuses: [],
      satisfactionSettings: [],
      routingRules: [],
      slaPolicies: [],
      customFields: [],
      macros: [],
      views: [],
      mailboxes: [],
      webhooks: [],
    });
    const response = await importInto(globex, exported);
    expect(response.statusCode, response.body).toBe(200);
    const { changes } = response.json().data;
    expect(changes.map((change: { action: string }) => change.action)).toEqual(changes.map(() => 'create'));
    expect(changes.map((change: { kind: string; name: string }) => `${change.kind} ${change.name}`)).toEqual([
      'team Billing',
      'team Support',
      'team Tier 2',
      'teamConfiguration Billing',
      'teamConfiguration Support',
      'teamConfiguration Tier 2',
      'customField account / region',
      'customField ticket / plan',
      'teamTag Support / German',
      'teamTag Support / VIP',
      'routingRule Support / Gold plans to billing',
      'routingRule Support / Everything else',
      'macro Support / Refund done',
      'view Support / Gold and open',
      'mailbox help@config.test',
      `webhook ${WEBHOOK_URL}`,
    ]);
    expect((await exportOf(globex)).data).toEqual(exported);
    const [mailbox] = await succeed(harness.app, globex.headers, 'GET', '/v1/mailboxes');
    expect(mailbox.imap).toMatchObject({ host: 'imap.example.com', lastError: IMAP_PASSWORD_NEEDED });
    // Acme's set-up is untouched by Globex's import, and the other way round.
    expect((await exportOf(acme)).data).toEqual(exported);
  });

  it('deletes what the document leaves out only with prune: teams are archived, their things kept', async () => {
    const temp = await call('POST', '/v1/teams', { name: 'Temporary', identifier: 'TMP' });
    await call('POST', `/v1/teams/${temp.id}/tags`, { name: 'Kept with its team' });
    await call('POST', `/v1/teams/${configured.teams.support}/tags`, { name: 'Extra' });
    await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks/extra', eventTypes: ['ticket.created'] });

    const kept = await importInto(acme, exported);
    expect(kept.json().data).toEqual({ applied: true, changes: [] });
    const withExtras = (await exportOf(acme)).data;
    expect(withExtras.teams.map((team: { name: string }) => team.name)).toContain('Temporary');

    const deletions = [
      { kind: 'webhook', name: 'http://127.0.0.1:9/hooks/extra', action: 'delete', fields: [] },
      { kind: 'team', name: 'Temporary', action: 'delete', fields: [] },
      { kind: 'teamTag', name: 'Support / Extra', action: 'delete', fields: [] },
    ];
    const dryRun = await importInto(acme, exported, '?prune=true&dryRun=true');
    expect(dryRun.json().data).toEqual({ applied: false, changes: deletions });
    expect((await exportOf(acme)).data).toEqual(withExtras);

    const pruned = await importInto(acme, exported, '?prune=true');
    expect(pruned.json().data).toEqual({ applied: true, changes: deletions });
    expect((await exportOf(acme)).data).toEqual(exported);
    const archived = await harness.app.inject({ url: `/v1/teams/${temp.id}`, headers: acme.headers });
    expect(archived.statusCode).toBe(404);
    // A section the document leaves out is left alone, even with prune.
    const { webhooks: _webhooks, ...withoutWebhooks } = exported;
    expect((await importInto(acme, withoutWebhooks, '?prune=true')).json().data).toEqual({ applied: true, changes: [] });
  });

  it('answers 403 to a member on export and import, and writes nothing', async () => {
    const forbidden = { statusCode: 403, message: 'User does not have access to this resource!', error: 'Forbidden' };
    const exportResponse = await harness.app.inject({ url: '/v1/config/export', headers: member.headers });
    expect(exportResponse.statusCode).toBe(403);
    expect(exportResponse.json()).toEqual(forbidden);
    const changed = { ...exported, teams: [{ name: 'Sneaky', identifier: 'SNK' }] };
    for (const query of ['', '?dryRun=true']) {
      const response = await importInto(member, changed, query);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(forbidden);
    }
    expect((await exportOf(acme)).data).toEqual(exported);
  });
});
