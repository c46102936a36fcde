import type { Insertable } from 'kysely';
import { expect } from 'vitest';
import { saveSlackInstallation } from '../src/channels/slack/slack.repository.js';
import { insertSlackTicketThread, saveSlackChannel } from '../src/channels/slack/slack-channel.repository.js';
import type { SlackChannelTable, SlackRequestTable } from '../src/channels/slack/slack-channel.table.js';
import { type SlackDeps, sealBotToken } from '../src/channels/slack/slack-install.service.js';
import type { TestOrganization } from './factories.js';
import { TEST_NOW, type TestApp } from './harness.js';
import type { TestSlackServer } from './slack-server.js';

/** The signing secret of the tests' Slack app, which `slackHeaders` signs requests with. */
export const TEST_SLACK_SIGNING_SECRET = 'slack-signing-secret-for-tests';

/** The settings a test app talks to the loopback Slack with. */
export function slackEnv(slack: TestSlackServer): Record<string, string> {
  return {
    PUBLIC_BASE_URL: 'https://support.example.com',
    SLACK_CLIENT_ID: '1234.5678',
    SLACK_CLIENT_SECRET: 'client-secret',
    SLACK_SIGNING_SECRET: TEST_SLACK_SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    SLACK_AUTHORIZE_URL: slack.authorizeUrl,
  };
}

/** What background Slack work is built with in a test: the app's own database, clock and key. */
export function slackDepsOf(harness: TestApp): SlackDeps {
  const quiet = () => undefined;
  return {
    db: harness.db,
    config: harness.config,
    clock: harness.clock,
    ids: harness.ids,
    secretKey: harness.secretKey,
    log: { info: quiet, warn: quiet, error: quiet },
  };
}

/** Installs the app for the organization as an admin does (OAuth v2): its bot token is `xoxb-<teamId>-token`. */
export async function installSlack(harness: TestApp, slack: TestSlackServer, organization: TestOrganization, teamId: string) {
  const install = await harness.app.inject({
    method: 'GET',
    url: '/v1/integrations/slack/install',
    headers: organization.headers,
  });
  expect(install.statusCode, install.body).toBe(302);
  const state = new URL(String(install.headers.location)).searchParams.get('state') ?? '';
  slack.script('oauth.v2.access', {
    ok: true,
    access_token: `xoxb-${teamId}-token`,
    token_type: 'bot',
    scope: 'channels:history,chat:write,chat:write.customize',
    bot_user_id: `U${teamId}BOT`,
    app_id: 'A0SWITCH',
    team: { id: teamId, name: `Workspace ${teamId}` },
    enterprise: null,
  });
  const back = await harness.app.inject({
    method: 'GET',
    url: `/v1/integrations/slack/oauth/callback?${new URLSearchParams({ code: `code-${teamId}`, state })}`,
  });
  expect(back.headers.location).toContain('slack=installed');
}

/**
 * A ticket from Slack as the inbound channel makes one: through `POST /v1/tickets` with source
 * `slack` and its thread in the metadata, and its `slack_ticket_threads` row.
 */
export async function makeSlackTicket(
  harness: TestApp,
  organization: TestOrganization,
  ticket: { teamId: string; channelId: string; threadTs: string; title?: string; requestorEmail?: string },
): Promise<{ id: string; ticketIdentifier: string }> {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/v1/tickets',
    headers: organization.headers,
    payload: {
      title: ticket.title ?? 'The export is broken',
      requestorEmail: ticket.requestorEmail ?? 'pat@customer.test',
      teamId: ticket.teamId,
      source: 'slack',
      metadata: { slack: { channelId: ticket.channelId, threadTs: ticket.threadTs, permalink: 'https://slack.test/p1' } },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json().data as { id: string; ticketIdentifier: string };
  await insertSlackTicketThread(harness.db, {
    ticket_id: created.id,
    organization_id: organization.organizationId,
    channel_id: ticket.channelId,
    thread_ts: ticket.threadTs,
    created_at: harness.clock.now().toISOString(),
  });
  return created;
}

/**
 * The organization's Slack installation of workspace `teamId` written as the OAuth callback keeps it,
 * for tests of what comes after the install (`installSlack` goes through OAuth): its bot token is `xoxb-<teamId>`.
 */
export async function storeSlackInstallation(
  harness: TestApp,
  organization: { organizationId: string; userId: string },
  teamId: string,
  options: { status?: 'active' | 'revoked' } = {},
) {
  const { organizationId } = organization;
  return saveSlackInstallation(harness.db, {
    id: `inst-${organizationId}`,
    organization_id: organizationId,
    team_id: teamId,
    team_name: `Workspace ${teamId}`,
    enterprise_id: null,
    app_id: 'A0SWITCH',
    bot_user_id: `U${teamId}BOT`,
    bot_token_encrypted: sealBotToken(harness, organizationId, `xoxb-${teamId}`),
    scopes: 'channels:read,groups:read,team:read',
    installed_by: organization.userId,
    status: options.status ?? 'active',
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
  });
}

/** A channel's stored settings, as an admin or the worker left them. */
export function makeSlackChannelRow(
  harness: TestApp,
  organizationId: string,
  channelId: string,
  overrides: Partial<Insertable<SlackChannelTable>> = {},
) {
  const row = {
    id: `chan-${organizationId}-${channelId}`,
    organization_id: organizationId,
    channel_id: channelId,
    name: channelId.toLowerCase(),
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
    ...overrides,
  };
  return saveSlackChannel(harness.db, row, row);
}

let decisions = 0;

/** A request detection decision as the inbound worker writes it (unmarked unless told). */
export async function makeSlackDecision(
  harness: TestApp,
  organizationId: string,
  overrides: Partial<Insertable<SlackRequestTable>> = {},
) {
  decisions += 1;
  const n = String(decisions).padStart(6, '0');
  const createdAt = overrides.created_at ?? new Date(Date.parse(TEST_NOW) + decisions * 1000).toISOString();
  const row: Insertable<SlackRequestTable> = {
    id: `01JSLACKDECISION0000${n}`,
    organization_id: organizationId,
    channel_id: 'C0CUSTOMER',
    slack_user_id: 'U0CUSTOMER',
    first_ts: `1760000000.${n}`,
    last_ts: `1760000000.${n}`,
    text: `Message ${n}`,
    mode: 'rules',
    is_request: 1,
    reason: "question mark and keyword 'broken'",
    ticket_id: null,
    grouping_until: createdAt,
    created_at: createdAt,
    updated_at: createdAt,
    ...overrides,
  };
  return harness.db.insertInto('slack_requests').values(row).returningAll().executeTakeFirstOrThrow();
}
