import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackAnswer, startSlackServer, type TestSlackServer } from '../slack-server.js';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

/** The same answer to every call of a method: the page may ask again (a refetch, a save). */
function answerAlways(slack: TestSlackServer, method: string, answer: SlackAnswer) {
  slack.script(method, ...Array.from({ length: 50 }, () => answer));
}

const shared = {
  id: 'C0GLOBEX',
  name: 'globex-support',
  is_private: false,
  is_ext_shared: true,
  is_member: true,
  connected_team_ids: ['T0ACME', 'T0GLOBEX'],
};
const triage = { id: 'C0TRIAGE', name: 'support-triage', is_private: true, is_ext_shared: false, is_member: true };

describe('settings: Slack channels and detection accuracy (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let slack: TestSlackServer;
  let lead: Agent;

  beforeAll(async () => {
    slack = await startSlackServer();
    [server, browser] = await Promise.all([
      startConsoleServer({
        SLACK_CLIENT_ID: '1234.5678',
        SLACK_CLIENT_SECRET: 'client-secret',
        SLACK_SIGNING_SECRET: 'signing-secret',
        SLACK_API_URL: slack.apiUrl,
        SLACK_AUTHORIZE_URL: slack.authorizeUrl,
      }),
      launchChromium(),
    ]);
    lead = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await slack?.close();
  });

  it('a lead installs Slack, maps the Slack Connect channel to its suggested account, marks decisions and reads the accuracy', {
    timeout: 90_000,
  }, async () => {
    const globex = await server.call<{ id: string }>('POST', '/v1/accounts', { name: 'Globex', primaryDomain: 'globex.test' });
    await server.call('POST', '/v1/accounts', { name: 'Initech', primaryDomain: 'initech.test' });
    const team = await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Support', identifier: 'SUP' });
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;
    await page.goto('/app/settings/channels');
    await page.getByRole('heading', { name: 'Slack' }).waitFor();

    // Install: the button leaves for Slack's authorize page; Slack sends the admin back with a code.
    slack.script('oauth.v2.access', {
      ok: true,
      access_token: 'xoxb-acme',
      token_type: 'bot',
      scope: 'channels:read,groups:read,team:read',
      bot_user_id: 'U0BOT',
      app_id: 'A0SWITCH',
      team: { id: 'T0ACME', name: 'Acme' },
    });
    answerAlways(slack, 'conversations.list', { ok: true, channels: [shared, triage], response_metadata: { next_cursor: '' } });
    answerAlways(slack, 'conversations.info', { ok: true, channel: shared });
    answerAlways(slack, 'team.info', { ok: true, team: { id: 'T0GLOBEX', domain: 'globex', email_domain: 'globex.test' } });
    await page.getByRole('button', { name: 'Install Slack' }).click();
    await page.waitForURL((url) => url.href.startsWith(slack.authorizeUrl));
    const state = new URL(page.url()).searchParams.get('state') ?? '';
    await page.goto(`/v1/integrations/slack/oauth/callback?${new URLSearchParams({ code: 'the-code', state })}`);
    await page.waitForURL(/\/app\/settings\/channels\?slack=installed/);
    await page.getByRole('status').filter({ hasText: 'Slack is installed' }).waitFor();
    await page.getByText('Workspace Acme').waitFor();

    // The shared channel starts on the account its partner's domain suggests.
    const channel = page.getByRole('form', { name: '#globex-support' });
    const account = channel.getByLabel('Account');
    await expect.poll(() => account.inputValue()).toBe(globex.id);
    await channel.getByText("Suggested from the partner workspace's domain").waitFor();
    await channel.getByLabel('Kind').selectOption('customer');
    await channel.getByLabel('Team').selectOption(team.id);
    await channel.getByLabel('Detection').selectOption('ai');
    await channel.getByLabel('Grouping window (seconds)').fill('10');
    await channel.getByRole('button', { name: 'Save #globex-support' }).click();
    await channel.getByText('Between 30 and 3600 seconds').waitFor();
    await channel.getByLabel('Grouping window (seconds)').fill('300');
    await channel.getByRole('button', { name: 'Save #globex-support' }).click();
    await channel.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await channel.getByText("Suggested from the partner workspace's domain").count()).toBe(0);
    const [saved] = await server.db.selectFrom('slack_channels').selectAll().where('channel_id', '=', 'C0GLOBEX').execute();
    expect(saved).toMatchObject({
      kind: 'customer',
      account_id: globex.id,
      team_id: team.id,
      detection_mode: 'ai',
      group_window_seconds: 300,
      name: 'globex-support',
    });
    expect(await accessibilityProblems(page)).toEqual([]);

    // Two decisions the worker took in the channel: one marked right, the other wrong.
    const { id: organizationId } = await server.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    const decision = (id: string, text: string, at: string) => ({
      id,
      organization_id: organizationId,
      channel_id: 'C0GLOBEX',
      slack_user_id: 'U0CUSTOMER',
      first_ts: `${Date.parse(at) / 1000}.000100`,
      last_ts: `${Date.parse(at) / 1000}.000100`,
      text,
      mode: 'ai',
      is_request: 1,
      reason: 'asks for help with a failing export',
      grouping_until: at,
      created_at: at,
      updated_at: at,
    });
    await server.db
      .insertInto('slack_requests')
      .values([
        decision('01JSLACKCONSOLE00000000001', 'Exports are broken since this morning', '2026-01-15T09:00:00.000Z'),
        decision('01JSLACKCONSOLE00000000002', 'Thanks, all good now!', '2026-01-15T09:05:00.000Z'),
      ])
      .execute();
    await page.getByRole('tab', { name: 'Detection' }).click();
    const decisions = page.getByRole('list', { name: 'Detection decisions' });
    await decisions.getByText('Exports are broken since this morning').waitFor();
    const report = page.getByRole('table', { name: 'Detection accuracy' });
    await report.getByRole('row', { name: /#globex-support ai 0 2/ }).waitFor();

    await decisions.getByRole('button', { name: 'Right: Exports are broken since this morning' }).click();
    await report.getByRole('row', { name: /#globex-support ai 1 1 100%/ }).waitFor();
    await decisions.getByRole('button', { name: 'Wrong: Thanks, all good now!' }).click();
    await report.getByRole('row', { name: /#globex-support ai 2 0 50% 100%/ }).waitFor();
    expect(
      await decisions.getByRole('button', { name: 'Right: Exports are broken since this morning' }).getAttribute('aria-pressed'),
    ).toBe('true');
    const marks = await server.db.selectFrom('slack_requests').select(['id', 'mark', 'marked_by']).orderBy('id').execute();
    expect(marks).toEqual([
      { id: '01JSLACKCONSOLE00000000001', mark: 'right', marked_by: lead.id },
      { id: '01JSLACKCONSOLE00000000002', mark: 'wrong', marked_by: lead.id },
    ]);
    expect(await accessibilityProblems(page)).toEqual([]);
    // The only page outside the console was Slack's authorize page, where the install button leads.
    expect(session.foreignRequests.every((url) => url.startsWith(slack.authorizeUrl))).toBe(true);
    expect(pageFailures(session).filter((failure) => !failure.includes('authorize'))).toEqual([]);
  });
});
