import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { slackEnv, TEST_SLACK_SIGNING_SECRET } from '../../../test/slack-app.js';
import { slackHeaders, startSlackServer, type TestSlackServer } from '../../../test/slack-server.js';
import { saveSlackChannel } from './slack-channel.repository.js';
import { SLACK_STATE_TTL_MS } from './slack-oauth-state.js';

const SIGNING_SECRET = TEST_SLACK_SIGNING_SECRET;
const NOW_SECONDS = Math.floor(Date.parse(TEST_NOW) / 1000);

/** What `oauth.v2.access` answers for a bot install of workspace `teamId`. */
const granted = (teamId: string, token = `xoxb-${teamId}-token`) => ({
  ok: true as const,
  access_token: token,
  token_type: 'bot',
  scope: 'channels:history,chat:write',
  bot_user_id: `U${teamId}BOT`,
  app_id: 'A0SWITCH',
  team: { id: teamId, name: `Workspace ${teamId}` },
  enterprise: null,
  authed_user: { id: 'U0ADMIN' },
});

describe.each(DIALECTS)('Slack install and events URL on %s', (dialect) => {
  let harness: TestApp;
  let slack: TestSlackServer;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    slack = await startSlackServer();
    harness = await buildTestApp(dialect, {
      env: {
        ...slackEnv(slack),
      },
    });
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia' });
  });
  beforeEach(() => {
    harness.clock.set(TEST_NOW);
    slack.calls.length = 0;
  });
  afterAll(async () => {
    await harness?.close();
    await slack?.close();
  });

  /** An admin's "Add to Slack": the authorize URL the install redirects to. */
  async function authorizeUrl(headers: Record<string, string>): Promise<URL> {
    const response = await harness.app.inject({ method: 'GET', url: '/v1/integrations/slack/install', headers });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location));
  }
  const callback = (query: Record<string, string>) =>
    harness.app.inject({ method: 'GET', url: `/v1/integrations/slack/oauth/callback?${new URLSearchParams(query)}` });
  const installation = async (headers: Record<string, string>) =>
    (await harness.app.inject({ method: 'GET', url: '/v1/integrations/slack', headers })).json().data;
  const installationRows = () => harness.db.selectFrom('slack_installations').selectAll().execute();
  const eventRows = () => harness.db.selectFrom('slack_events').selectAll().orderBy('event_id').execute();

  async function install(organization: TestOrganization, teamId: string) {
    const state = (await authorizeUrl(organization.headers)).searchParams.get('state') ?? '';
    slack.script('oauth.v2.access', granted(teamId));
    return callback({ code: `code-${teamId}`, state });
  }

  function postEvent(envelope: object, options: { timestamp?: number; retryNum?: number; secret?: string; body?: string } = {}) {
    const body = options.body ?? JSON.stringify(envelope);
    return harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/events',
      headers: slackHeaders(options.secret ?? SIGNING_SECRET, body, {
        timestamp: options.timestamp ?? NOW_SECONDS,
        retryNum: options.retryNum,
      }),
      payload: body,
    });
  }
  const message = (teamId: string, eventId: string, text: string) => ({
    type: 'event_callback',
    team_id: teamId,
    api_app_id: 'A0SWITCH',
    event_id: eventId,
    event_time: NOW_SECONDS - 1,
    event: { type: 'message', channel: 'C0CUSTOMER', user: 'U0CUSTOMER', text, ts: `${NOW_SECONDS - 1}.000100` },
  });

  it("installs by OAuth v2: Slack's authorize page with the bot's scopes and a signed state, then the code exchanged for a sealed bot token", async () => {
    const url = await authorizeUrl(acme.headers);
    expect(`${url.origin}${url.pathname}`).toBe(slack.authorizeUrl);
    expect(url.searchParams.get('client_id')).toBe('1234.5678');
    expect(url.searchParams.get('redirect_uri')).toBe('https://support.example.com/v1/integrations/slack/oauth/callback');
    expect(url.searchParams.get('scope')?.split(',')).toEqual(
      expect.arrayContaining(['channels:history', 'chat:write', 'chat:write.customize', 'reactions:read', 'users:read.email']),
    );
    slack.script('oauth.v2.access', granted('T0ACME'));
    const back = await callback({ code: 'the-code', state: url.searchParams.get('state') ?? '' });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('https://support.example.com/app/settings/channels?slack=installed');
    expect(slack.calls.map((call) => [call.method, call.params.code, call.params.client_id, call.params.client_secret])).toEqual([
      ['oauth.v2.access', 'the-code', '1234.5678', 'client-secret'],
    ]);
    const [row] = (await installationRows()).filter((each) => each.organization_id === acme.organizationId);
    expect(row).toMatchObject({ team_id: 'T0ACME', bot_user_id: 'UT0ACMEBOT', status: 'active', installed_by: acme.userId });
    expect(row?.bot_token_encrypted).not.toContain('xoxb');
    expect(await installation(acme.headers)).toMatchObject({
      teamId: 'T0ACME',
      teamName: 'Workspace T0ACME',
      status: 'active',
      scopes: ['channels:history', 'chat:write'],
    });
    // Installing again (new scopes, a new token) replaces it.
    expect((await install(acme, 'T0ACME')).headers.location).toContain('slack=installed');
    expect((await installationRows()).filter((each) => each.organization_id === acme.organizationId)).toHaveLength(1);
  });

  it('refuses a forged, altered or expired state, and a cancelled install, without calling Slack or writing', async () => {
    const before = await installationRows();
    const state = (await authorizeUrl(globex.headers)).searchParams.get('state') ?? '';
    const [body, signature] = state.split('.');
    const forged = `${Buffer.from(JSON.stringify({ o: acme.organizationId, u: acme.userId, e: Date.now() * 2, n: 'x' })).toString('base64url')}.${signature}`;
    for (const bad of ['', 'nonsense', `${body}.${'A'.repeat(43)}`, forged]) {
      const response = await callback({ code: 'stolen', state: bad });
      expect(response.headers.location, bad).toBe(
        'https://support.example.com/app/settings/channels?slack=error&reason=invalid_state',
      );
    }
    harness.clock.set(new Date(Date.parse(TEST_NOW) + SLACK_STATE_TTL_MS + 1000).toISOString());
    expect((await callback({ code: 'late', state })).headers.location).toContain('reason=invalid_state');
    harness.clock.set(TEST_NOW);
    expect((await callback({ error: 'access_denied', state })).headers.location).toContain('reason=access_denied');
    expect(slack.calls).toEqual([]);
    expect(await installationRows()).toEqual(before);
  });

  it('keeps a workspace to one organization, and says why when Slack refuses the code', async () => {
    await install(acme, 'T0ACME');
    const state = (await authorizeUrl(globex.headers)).searchParams.get('state') ?? '';
    slack.script('oauth.v2.access', granted('T0ACME', 'xoxb-stolen'));
    expect((await callback({ code: 'x', state })).headers.location).toContain('reason=workspace_taken');
    slack.script('oauth.v2.access', { ok: false, error: 'invalid_code' });
    expect((await callback({ code: 'expired', state })).headers.location).toContain('reason=invalid_code');
    expect(await installation(globex.headers)).toBeNull();
  });

  it('lets only admins install or read the installation', async () => {
    for (const url of ['/v1/integrations/slack/install', '/v1/integrations/slack']) {
      const response = await harness.app.inject({ method: 'GET', url, headers: member.headers });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toMatchObject({ statusCode: 403 });
    }
    expect((await harness.app.inject({ method: 'GET', url: '/v1/integrations/slack/install' })).statusCode).toBe(401);
  });

  it("answers the URL check's challenge, and keeps each event once whatever Slack's retries or a replay", async () => {
    await install(acme, 'T0ACME');
    // Messages are kept only from customer and triage channels.
    const at = TEST_NOW;
    const channel = { id: 'SC0CUSTOMER', organization_id: acme.organizationId, channel_id: 'C0CUSTOMER', name: 'acme-support' };
    await saveSlackChannel(harness.db, { ...channel, kind: 'customer', created_at: at, updated_at: at }, { kind: 'customer' });
    const check = await postEvent({ type: 'url_verification', token: 'legacy', challenge: 'c-123' });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({ challenge: 'c-123' });

    const event = message('T0ACME', 'Ev0001', 'Our exports are broken since this morning?');
    expect((await postEvent(event)).json()).toEqual({ ok: true });
    expect((await postEvent(event, { retryNum: 1 })).statusCode).toBe(200);
    expect((await postEvent(event, { timestamp: NOW_SECONDS - 120 })).statusCode).toBe(200);
    const rows = await eventRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event_id: 'Ev0001',
      organization_id: acme.organizationId,
      event_type: 'message',
      channel_id: 'C0CUSTOMER',
      status: 'pending',
    });
    expect(JSON.parse(rows[0]?.payload ?? '{}')).toEqual(event);
    // Two deliveries at once (two processes answering Slack's retry): still one.
    await Promise.all([
      postEvent(message('T0ACME', 'Ev0002', 'again')),
      postEvent(message('T0ACME', 'Ev0002', 'again'), { retryNum: 1 }),
    ]);
    expect((await eventRows()).map((row) => row.event_id)).toEqual(['Ev0001', 'Ev0002']);
  });

  it('refuses a missing, stale, future or wrong signature with 401, and ignores a workspace nobody installed, writing nothing', async () => {
    await harness.db.deleteFrom('slack_events').execute();
    const event = message('T0ACME', 'Ev0100', 'hello');
    const unsigned = await harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/events',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(401);
    // The platform's 401, whatever the reason (which is logged; see slack-signature.test.ts).
    expect(unsigned.json()).toMatchObject({ statusCode: 401 });
    expect((await postEvent(event, { timestamp: NOW_SECONDS - 301 })).statusCode).toBe(401);
    expect((await postEvent(event, { timestamp: NOW_SECONDS + 301 })).statusCode).toBe(401);
    expect((await postEvent(event, { secret: 'another-secret' })).statusCode).toBe(401);
    // The body changed after signing.
    const signed = slackHeaders(SIGNING_SECRET, JSON.stringify(event), { timestamp: NOW_SECONDS });
    const altered = await harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/events',
      headers: signed,
      payload: JSON.stringify({ ...event, team_id: 'T0OTHER' }),
    });
    expect(altered.statusCode).toBe(401);
    expect((await postEvent(message('T0NOBODY', 'Ev0101', 'hi'))).statusCode).toBe(200);
    expect((await postEvent({}, { body: 'not json' })).statusCode).toBe(400);
    expect((await postEvent({}, { body: '[1]' })).statusCode).toBe(400);
    expect(await eventRows()).toEqual([]);
  });

  it('marks the installation revoked when Slack says the app was uninstalled, and ignores its events after', async () => {
    await install(acme, 'T0ACME');
    await harness.db.deleteFrom('slack_events').execute();
    const uninstalled = { ...message('T0ACME', 'Ev0200', ''), event: { type: 'app_uninstalled' } };
    expect((await postEvent(uninstalled)).statusCode).toBe(200);
    expect(await installation(acme.headers)).toMatchObject({ status: 'revoked', revokedReason: 'app_uninstalled' });
    expect((await postEvent(message('T0ACME', 'Ev0201', 'still there?'))).statusCode).toBe(200);
    expect(await eventRows()).toEqual([]);
    // Installing again brings it back.
    await install(acme, 'T0ACME');
    expect(await installation(acme.headers)).toMatchObject({ status: 'active', revokedReason: null });
  });
});

describe('Slack without an app set up', () => {
  it('answers 409 to an install, and to an event', async () => {
    const harness = await buildTestApp('sqlite');
    try {
      const acme = await makeOrganization(harness, { name: 'Acme' });
      const install = await harness.app.inject({ method: 'GET', url: '/v1/integrations/slack/install', headers: acme.headers });
      expect(install.statusCode).toBe(409);
      expect(install.json().message).toContain('SLACK_CLIENT_ID');
      const event = await harness.app.inject({
        method: 'POST',
        url: '/v1/integrations/slack/events',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(event.statusCode).toBe(409);
    } finally {
      await harness.close();
    }
  });
});
