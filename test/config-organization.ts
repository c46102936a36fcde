import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/**
 * An organization's set-up made through the API, for the tests of configuration export and
 * import: teams and a sub-team, tags, a configuration with hours and holidays, routing rules with
 * AND/OR conditions (one on a custom field), custom fields with options, a shared macro and view,
 * an IMAP mailbox with its password and a webhook. Answers what the tests look for.
 */
export interface ConfiguredOrganization {
  teams: { support: string; billing: string; tierTwo: string };
  tags: { vip: string; german: string };
  rules: { gold: string; rest: string };
  customField: string;
  macro: string;
  view: string;
  mailbox: string;
  webhook: string;
  /** What must never appear in an export. */
  secrets: string[];
}

export const IMAP_PASSWORD = 'hunter2-imap-password';
export const WEBHOOK_URL = 'http://127.0.0.1:9/hooks/config';
/** The environment the apps of these tests need: the webhook's loopback address allowed. */
export const CONFIG_TEST_ENV = { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The `data` of a call that must succeed. */
export async function succeed(
  app: FastifyInstance,
  headers: Record<string, string>,
  method: Method,
  url: string,
  payload?: object,
) {
  const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json().data;
}

const condition = (value: Record<string, unknown>) => JSON.stringify(value);

export async function configureOrganization(
  app: FastifyInstance,
  headers: Record<string, string>,
  agentId: string,
): Promise<ConfiguredOrganization> {
  const call = (method: Method, url: string, payload?: object) => succeed(app, headers, method, url, payload);
  const support = await call('POST', '/v1/teams', {
    name: 'Support',
    identifier: 'SUP',
    description: 'First line',
    icon: 'inbox',
    color: '#1F74DB',
  });
  const billing = await call('POST', '/v1/teams', { name: 'Billing', identifier: 'BIL', isPrivate: true });
  const tierTwo = await call('POST', '/v1/teams', { name: 'Tier 2', identifier: 'TWO', parentTeamId: support.id });
  const tags = await call('POST', `/v1/teams/${support.id}/tags`, { name: 'VIP', color: '#FF0000', description: 'Pays more' });
  const withGerman = await call('POST', `/v1/teams/${support.id}/tags`, { name: 'German', type: 'skills' });
  const vip = tags.items.find((tag: { name: string }) => tag.name === 'VIP').id;
  const german = withGerman.items.find((tag: { name: string }) => tag.name === 'German').id;
  await call('PATCH', `/v1/teams/${support.id}/configurations`, {
    timezone: 'Europe/Paris',
    holidays: ['25-12', '01-05-2026'],
    routingRespectsTimezone: true,
    userRoutingStrategy: 'round_robin',
    fallbackSubTeam: tierTwo.id,
    dailyConfig: { saturday: { isActive: true, slots: [{ start: '10:00', end: '14:00' }] } },
  });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/custom-field',
    headers,
    payload: {
      name: 'Plan',
      source: 'ticket',
      fieldType: 'single_choice',
      options: [{ value: 'gold' }, { value: 'silver' }],
      mandatoryOnClose: true,
      hintText: 'The plan on the invoice',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const customField = created.json().data.uid as string;
  await call('POST', '/v1/custom-field', {
    name: 'Region',
    source: 'account',
    fieldType: 'single_line',
    regexForValidation: '^[A-Z]{2}$',
    // A key of the organization's own data, not a secret, although its name holds "token".
    metadata: { group: 'geo', tokenLimit: 3 },
  });
  const gold = await call('POST', `/v1/teams/${support.id}/routing`, {
    name: 'Gold plans to billing',
    evaluationOrder: 1,
    resultTeamId: billing.id,
    fallbackTeamId: tierTwo.id,
    andRules: [
      condition({ field: `customField.${customField}`, operator: 'equals', value: 'gold' }),
      condition({ field: 'priority', operator: 'in', value: ['high', 'urgent'] }),
    ],
    orRules: [
      condition({ field: 'title', operator: 'contains', value: 'invoice' }),
      condition({ field: 'tags', operator: 'contains', value: 'VIP' }),
    ],
  });
  const rest = await call('POST', `/v1/teams/${support.id}/routing`, {
    name: 'Everything else',
    evaluationOrder: 2,
    resultTeamId: support.id,
  });
  const macro = await call('POST', '/v1/macros', {
    name: 'Refund done',
    description: 'When the refund has gone through',
    content: 'We refunded you, {{ticket.identifier}}.',
    teamId: support.id,
    commentVisibility: 'public',
    shouldSendEmail: true,
    actions: { statusName: 'closed', addTagIds: [vip], assignedAgentId: agentId },
  });
  const view = await call('POST', '/v1/views', {
    name: 'Gold and open',
    teamId: support.id,
    filters: {
      teamId: [support.id, billing.id],
      isClosed: false,
      [`cf.${customField}`]: 'gold',
      tag: [vip],
      assignedAgentId: agentId,
    },
    sort: '-updatedAt',
  });
  const mailbox = await call('POST', '/v1/mailboxes', {
    address: 'help@config.test',
    teamId: support.id,
    displayName: 'Help desk',
    delivery: 'imap',
    isDefault: true,
    imap: { host: 'imap.example.com', username: 'help', password: IMAP_PASSWORD, processedFolder: 'Done' },
  });
  const webhook = await call('POST', '/v1/webhooks', { url: WEBHOOK_URL, eventTypes: ['ticket.created'], description: 'CRM' });
  return {
    teams: { support: support.id, billing: billing.id, tierTwo: tierTwo.id },
    tags: { vip, german },
    rules: { gold: gold.id, rest: rest.id },
    customField,
    macro: macro.id,
    view: view.id,
    mailbox: mailbox.id,
    webhook: webhook.id,
    secrets: [IMAP_PASSWORD, webhook.secret, headers['x-api-key'] ?? ''],
  };
}
