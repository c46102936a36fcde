import type { Insertable } from 'kysely';
import { saveSlackInstallation } from '../src/channels/slack/slack.repository.js';
import { saveSlackChannel } from '../src/channels/slack/slack-channel.repository.js';
import type { SlackChannelTable, SlackRequestTable } from '../src/channels/slack/slack-channel.table.js';
import { sealBotToken } from '../src/channels/slack/slack-install.service.js';
import { TEST_NOW, type TestApp } from './harness.js';
import type { TestSlackServer } from './slack-server.js';

/** The settings a test app needs to speak to the loopback Slack server. */
export function slackTestEnv(slack: TestSlackServer): Record<string, string> {
  return {
    PUBLIC_BASE_URL: 'https://support.example.com',
    SLACK_CLIENT_ID: '1234.5678',
    SLACK_CLIENT_SECRET: 'client-secret',
    SLACK_SIGNING_SECRET: 'slack-signing-secret-for-tests',
    SLACK_API_URL: slack.apiUrl,
    SLACK_AUTHORIZE_URL: slack.authorizeUrl,
  };
}

/**
 * The organization's Slack installation of workspace `teamId`, as the OAuth callback keeps it (the
 * install itself is tested in slack-install.test.ts): its bot token is `xoxb-<teamId>`.
 */
export async function installSlack(
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
