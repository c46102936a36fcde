import { expect } from 'vitest';
import { insertSlackTicketThread } from '../src/channels/slack/slack-channel.repository.js';
import type { SlackDeps } from '../src/channels/slack/slack-install.service.js';
import type { TestOrganization } from './factories.js';
import type { TestApp } from './harness.js';
import type { TestSlackServer } from './slack-server.js';

/** The settings a test app talks to the loopback Slack with. */
export function slackEnv(slack: TestSlackServer): Record<string, string> {
  return {
    PUBLIC_BASE_URL: 'https://support.example.com',
    SLACK_CLIENT_ID: '1234.5678',
    SLACK_CLIENT_SECRET: 'client-secret',
    SLACK_SIGNING_SECRET: 'slack-signing-secret-for-tests',
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
