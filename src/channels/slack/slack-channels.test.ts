import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { makeSlackChannelRow, slackEnv, storeSlackInstallation } from '../../../test/slack-app.js';
import { type SlackCall, startSlackServer, type TestSlackServer } from '../../../test/slack-server.js';

/** A channel as `conversations.list` and `conversations.info` describe it. */
const conversation = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  is_channel: true,
  is_private: false,
  is_ext_shared: false,
  is_archived: false,
  is_member: true,
  ...extra,
});

describe.each(DIALECTS)('Slack channels of the organization on %s', (dialect) => {
  let harness: TestApp;
  let slack: TestSlackServer;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let globexAccount: string;
  let otherAccount: string;
  let supportTeam: string;
  let foreignAccount: string;
  let foreignTeam: string;

  const api = (method: 'GET' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) =>
    harness.app.inject({ method, url: `/v1/integrations/slack${url}`, headers, ...(payload === undefined ? {} : { payload }) });
  const create = async (organization: TestOrganization, url: string, payload: Record<string, unknown>) => {
    const response = await harness.app.inject({ method: 'POST', url, headers: organization.headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return String((response.json().data ?? response.json()).id);
  };
  const channelRows = () => harness.db.selectFrom('slack_channels').selectAll().orderBy('channel_id').execute();

  beforeAll(async () => {
    slack = await startSlackServer();
    harness = await buildTestApp(dialect, { env: slackEnv(slack) });
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia' });
    globexAccount = await create(acme, '/v1/accounts', { name: 'Globex Corp', primaryDomain: 'globex.example' });
    otherAccount = await create(acme, '/v1/accounts', { name: 'Initech', primaryDomain: 'initech.example' });
    supportTeam = await create(acme, '/v1/teams', { name: 'Support' });
    foreignAccount = await create(globex, '/v1/accounts', { name: 'Theirs', primaryDomain: 'theirs.example' });
    foreignTeam = await create(globex, '/v1/teams', { name: 'Their team' });
    await storeSlackInstallation(harness, acme, 'T0ACME');
  });
  beforeEach(() => {
    harness.clock.set(TEST_NOW);
    slack.calls.length = 0;
  });
  afterAll(async () => {
    await harness?.close();
    await slack?.close();
  });

  /** The workspace of the Slack Connect channel's partner, as `team.info` answers it. */
  const partnerTeam = {
    ok: true as const,
    team: { id: 'T0GLOBEX', name: 'Globex', domain: 'globex-hq', email_domain: 'globex.example' },
  };

  it("lists the bot's channels over Slack's pages, with their settings, the partner's account suggested, and a channel the bot left", async () => {
    await makeSlackChannelRow(harness, acme.organizationId, 'C0TRIAGE', {
      name: 'old-name',
      kind: 'triage',
      team_id: supportTeam,
    });
    await makeSlackChannelRow(harness, acme.organizationId, 'C0GONE', {
      name: 'gone',
      kind: 'customer',
      status: 'disconnected',
      disconnected_reason: 'not_in_channel',
    });
    slack.script(
      'conversations.list',
      {
        ok: true,
        channels: [conversation('C0TRIAGE', 'triage'), conversation('C0NOTME', 'not-mine', { is_member: false })],
        response_metadata: { next_cursor: 'page-2' },
      },
      {
        ok: true,
        channels: [conversation('C0SHARED', 'globex-shared', { is_ext_shared: true, is_private: true })],
        response_metadata: { next_cursor: '' },
      },
    );
    slack.script('conversations.info', {
      ok: true,
      channel: { ...conversation('C0SHARED', 'globex-shared'), connected_team_ids: ['T0ACME', 'T0GLOBEX'] },
    });
    slack.script('team.info', partnerTeam);
    const response = await api('GET', '/channels', acme.headers);
    expect(response.statusCode, response.body).toBe(200);
    const defaults = { accountId: null, teamId: null, detectionMode: 'rules', groupWindowSeconds: 120, detectionRules: null };
    expect(response.json().data).toEqual([
      {
        channelId: 'C0SHARED',
        name: 'globex-shared',
        isPrivate: true,
        isShared: true,
        kind: 'ignored',
        ...defaults,
        status: 'connected',
        disconnectedReason: null,
        suggestedAccountId: globexAccount,
      },
      {
        channelId: 'C0TRIAGE',
        name: 'triage',
        isPrivate: false,
        isShared: false,
        kind: 'triage',
        ...defaults,
        teamId: supportTeam,
        status: 'connected',
        disconnectedReason: null,
        suggestedAccountId: null,
      },
      {
        channelId: 'C0GONE',
        name: 'gone',
        isPrivate: false,
        isShared: false,
        kind: 'customer',
        ...defaults,
        status: 'disconnected',
        disconnectedReason: 'not_in_channel',
        suggestedAccountId: null,
      },
    ]);
    const summary = (call: SlackCall) => [call.method, call.token, call.params.cursor ?? call.params.channel ?? call.params.team];
    expect(slack.calls.map(summary)).toEqual([
      ['conversations.list', 'xoxb-T0ACME', undefined],
      ['conversations.list', 'xoxb-T0ACME', 'page-2'],
      ['conversations.info', 'xoxb-T0ACME', 'C0SHARED'],
      ['team.info', 'xoxb-T0ACME', 'T0GLOBEX'],
    ]);
    expect(slack.calls[0]?.params).toMatchObject({ types: 'public_channel,private_channel', exclude_archived: 'true' });
  });

  it('suggests nothing when the partner workspace matches no account, or Slack will not say who it is', async () => {
    slack.script('conversations.list', {
      ok: true,
      channels: [
        conversation('C0UNKNOWN', 'unknown-partner', { is_ext_shared: true }),
        conversation('C0SECRET', 'secret-partner', { is_ext_shared: true }),
      ],
    });
    slack.script(
      'conversations.info',
      { ok: true, channel: { ...conversation('C0UNKNOWN', 'unknown-partner'), connected_team_ids: ['T0ACME', 'T0HOOLI'] } },
      { ok: false, error: 'missing_scope' },
    );
    slack.script('team.info', { ok: true, team: { id: 'T0HOOLI', domain: 'hooli', email_domain: 'hooli.example' } });
    const response = await api('GET', '/channels', acme.headers);
    expect(response.statusCode, response.body).toBe(200);
    const suggestions = response
      .json()
      .data.map((channel: { channelId: string; suggestedAccountId: string | null }) => [
        channel.channelId,
        channel.suggestedAccountId,
      ]);
    expect(suggestions.slice(0, 2)).toEqual([
      ['C0SECRET', null],
      ['C0UNKNOWN', null],
    ]);
  });

  it("maps a customer channel to its suggested account, and keeps Slack's name", async () => {
    const before = (await channelRows()).filter((row) => row.channel_id === 'C0SHARED');
    expect(before).toEqual([]);
    slack.script('conversations.info', {
      ok: true,
      channel: {
        ...conversation('C0SHARED', 'globex-shared', { is_ext_shared: true }),
        connected_team_ids: ['T0ACME', 'T0GLOBEX'],
      },
    });
    const settings = {
      kind: 'customer',
      accountId: globexAccount,
      teamId: supportTeam,
      detectionMode: 'ai',
      groupWindowSeconds: 300,
      detectionRules: { keywords: ['broken', 'urgent'], excludedPatterns: ['thanks'], questions: true, botMentions: false },
    };
    const response = await api('PATCH', '/channels/C0SHARED', acme.headers, settings);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      channelId: 'C0SHARED',
      name: 'globex-shared',
      isPrivate: false,
      isShared: true,
      ...settings,
      status: 'connected',
      disconnectedReason: null,
      suggestedAccountId: null,
    });
    expect(slack.calls.map((call) => [call.method, call.params.channel])).toEqual([['conversations.info', 'C0SHARED']]);
    const [row] = (await channelRows()).filter((each) => each.channel_id === 'C0SHARED');
    expect(row).toMatchObject({
      organization_id: acme.organizationId,
      name: 'globex-shared',
      kind: 'customer',
      account_id: globexAccount,
      team_id: supportTeam,
      detection_mode: 'ai',
      group_window_seconds: 300,
    });
    expect(JSON.parse(row?.detection_rules ?? 'null')).toEqual(settings.detectionRules);

    // A second change touches only what it names; null rules go back to the defaults.
    slack.script('conversations.info', {
      ok: true,
      channel: conversation('C0SHARED', 'globex-renamed', { is_ext_shared: true }),
    });
    const again = await api('PATCH', '/channels/C0SHARED', acme.headers, { detectionRules: null, accountId: otherAccount });
    expect(again.json().data).toMatchObject({
      name: 'globex-renamed',
      kind: 'customer',
      accountId: otherAccount,
      detectionMode: 'ai',
      detectionRules: null,
    });
  });

  it('connects a disconnected channel again once Slack answers it', async () => {
    await makeSlackChannelRow(harness, acme.organizationId, 'C0BACK', {
      name: 'back',
      kind: 'customer',
      team_id: supportTeam,
      status: 'disconnected',
      disconnected_reason: 'not_in_channel',
    });
    slack.script('conversations.info', { ok: true, channel: conversation('C0BACK', 'back') });
    const response = await api('PATCH', '/channels/C0BACK', acme.headers, { groupWindowSeconds: 60 });
    expect(response.json().data).toMatchObject({
      kind: 'customer',
      status: 'connected',
      disconnectedReason: null,
      groupWindowSeconds: 60,
    });
  });

  it('refuses each bad setting with a 400, writing nothing and asking Slack nothing', async () => {
    const before = await channelRows();
    const bad: [string, object][] = [
      ['empty', {}],
      ['unknown field', { colour: 'red' }],
      ['kind', { kind: 'vip' }],
      ['mode', { detectionMode: 'magic' }],
      ['window too short', { groupWindowSeconds: 29 }],
      ['window too long', { groupWindowSeconds: 3601 }],
      ['window not whole', { groupWindowSeconds: 60.5 }],
      ['rules missing a field', { detectionRules: { keywords: [], excludedPatterns: [], questions: true } }],
      ['empty keyword', { detectionRules: { keywords: [''], excludedPatterns: [], questions: true, botMentions: true } }],
      ['account not text', { accountId: 42 }],
      ['customer channel without a team', { teamId: null }],
    ];
    for (const [label, body] of bad) {
      const response = await api('PATCH', '/channels/C0SHARED', acme.headers, body);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      expect(Object.keys(response.json()).sort(), label).toEqual(['error', 'message', 'statusCode']);
    }
    const badId = await api('PATCH', '/channels/not-a-channel', acme.headers, { kind: 'ignored' });
    expect(badId.statusCode).toBe(400);
    expect(slack.calls).toEqual([]);
    expect(await channelRows()).toEqual(before);
  });

  it("answers 404 for another organization's account or team, and a channel the bot is not in, writing nothing", async () => {
    const before = await channelRows();
    for (const body of [{ accountId: foreignAccount }, { teamId: foreignTeam }, { accountId: 'nope' }]) {
      const response = await api('PATCH', '/channels/C0SHARED', acme.headers, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(404);
    }
    expect(slack.calls).toEqual([]);
    slack.script(
      'conversations.info',
      { ok: false, error: 'channel_not_found' },
      { ok: true, channel: conversation('C0OTHER', 'other', { is_member: false }) },
      { ok: false, error: 'internal_error' },
    );
    const unknown = await api('PATCH', '/channels/C0NOWHERE', acme.headers, { kind: 'customer', teamId: supportTeam });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('not in it');
    expect((await api('PATCH', '/channels/C0OTHER', acme.headers, { kind: 'triage' })).statusCode).toBe(404);
    const failing = await api('PATCH', '/channels/C0OTHER', acme.headers, { kind: 'triage' });
    expect(failing.statusCode).toBe(502);
    expect(failing.json()).toEqual({
      statusCode: 502,
      error: 'Bad Gateway',
      message: 'Slack answered internal_error to conversations.info',
    });
    // Another organization (no Slack there) knows no such channel.
    expect((await api('PATCH', '/channels/C0SHARED', globex.headers, { kind: 'customer' })).statusCode).toBe(404);
    expect(await channelRows()).toEqual(before);
  });

  it("lets only admins list or change channels; answers 409 without an installation, and 502 naming Slack's error", async () => {
    expect((await api('GET', '/channels', member.headers)).statusCode).toBe(403);
    expect((await api('PATCH', '/channels/C0SHARED', member.headers, { kind: 'ignored' })).statusCode).toBe(403);
    const none = await api('GET', '/channels', globex.headers);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toContain('not installed');
    slack.script('conversations.list', { ok: false, error: 'missing_scope' });
    const refused = await api('GET', '/channels', acme.headers);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toBe('Slack answered missing_scope to conversations.list');
    await storeSlackInstallation(harness, globex, 'T0GLOBEX', { status: 'revoked' });
    const revoked = await api('GET', '/channels', globex.headers);
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().message).toContain('install it again');
    expect((await api('PATCH', '/channels/C0SHARED', globex.headers, { kind: 'ignored' })).statusCode).toBe(409);
    expect(slack.calls.map((call) => call.method)).toEqual(['conversations.list']);
  });
});
