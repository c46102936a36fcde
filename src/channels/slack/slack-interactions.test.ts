import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { slackEnv, TEST_SLACK_SIGNING_SECRET } from '../../../test/slack-app.js';
import {
  slackHeaders,
  slackInteraction,
  slackPerson,
  startSlackServer,
  type TestSlackServer,
} from '../../../test/slack-server.js';
import { createAttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { findSlackInstallationByTeam, type SlackInstallationRow } from './slack.repository.js';
import { insertSlackTicketThread, linkSlackMessage } from './slack-channel.repository.js';
import { runSlackInteraction, TRIAGE_ACTIONS } from './slack-interactions.service.js';
import { runSlackReactionCommand } from './slack-reaction-commands.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

const SIGNING_SECRET = TEST_SLACK_SIGNING_SECRET;
const NOW_SECONDS = Math.floor(Date.parse(TEST_NOW) / 1000);
const AGENT_EMAIL = 'ava@acme.test';

/** What `oauth.v2.access` answers for a bot install of workspace `teamId`. */
const granted = (teamId: string) => ({
  ok: true as const,
  access_token: `xoxb-${teamId}-token`,
  token_type: 'bot',
  scope: 'users:read,users:read.email,chat:write',
  bot_user_id: `U${teamId}BOT`,
  app_id: 'A0SWITCH',
  team: { id: teamId, name: `Workspace ${teamId}` },
});

describe.each(DIALECTS)('Slack commands (triage buttons, 👀 and ✅ reactions) on %s', (dialect) => {
  let harness: TestApp;
  let slack: TestSlackServer;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let teamId: string;
  let agentId: string;
  let installation: SlackInstallationRow;
  let triggers = 0;

  beforeAll(async () => {
    slack = await startSlackServer();
    harness = await buildTestApp(dialect, {
      env: {
        ...slackEnv(slack),
      },
    });
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    teamId = (await makeTeam(harness, acme, { name: 'Support', identifier: 'SUP' })).teamId;
    agentId = (await makeUser(harness, acme.organizationId, { name: 'Ava Agent', email: AGENT_EMAIL })).userId;
    await install(acme, 'T0ACME');
    installation = (await findSlackInstallationByTeam(harness.db, 'T0ACME')) as SlackInstallationRow;
  });
  beforeEach(() => {
    harness.clock.set(TEST_NOW);
    slack.calls.length = 0;
  });
  afterAll(async () => {
    await harness?.close();
    await slack?.close();
  });

  /** What the Slack worker hands the handlers: the app's database, clock, ids and sealing key. */
  const workerDeps = (): SlackWorkerDeps => ({
    db: harness.db,
    config: harness.config,
    clock: harness.clock,
    ids: harness.ids,
    secretKey: harness.secretKey,
    log: pino({ level: 'silent' }),
    storage: createAttachmentStorage(harness.config),
  });

  async function install(organization: TestOrganization, slackTeamId: string) {
    const start = await harness.app.inject({ url: '/v1/integrations/slack/install', headers: organization.headers });
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    slack.script('oauth.v2.access', granted(slackTeamId));
    const back = await harness.app.inject({
      url: `/v1/integrations/slack/oauth/callback?${new URLSearchParams({ code: 'c', state })}`,
    });
    expect(back.headers.location).toContain('slack=installed');
  }

  async function makeTicket(organization: TestOrganization, team: string, title = 'Exports are broken') {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: organization.headers,
      payload: { title, requestorEmail: 'cora@customer.test', teamId: team, performRouting: false, source: 'slack' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as string;
  }
  const ticket = async (organization: TestOrganization, id: string) =>
    (await harness.app.inject({ url: `/v1/tickets/${id}`, headers: organization.headers })).json().data;
  const activities = async (organization: TestOrganization, id: string) =>
    (await harness.app.inject({ url: `/v1/tickets/${id}/activities`, headers: organization.headers })).json().data;
  const eventRows = () => harness.db.selectFrom('slack_events').selectAll().orderBy('event_id').execute();

  /** A click on a triage post's button, as Slack sends it. */
  function click(action: string, ticketId: string, options: { slackTeamId?: string; user?: string; trigger?: string } = {}) {
    triggers += 1;
    return {
      type: 'block_actions',
      trigger_id: options.trigger ?? `1337.${triggers}.abcdef`,
      team: { id: options.slackTeamId ?? 'T0ACME', domain: 'acme' },
      user: { id: options.user ?? 'U0AVA', team_id: options.slackTeamId ?? 'T0ACME' },
      api_app_id: 'A0SWITCH',
      channel: { id: 'C0TRIAGE', name: 'triage' },
      message: { ts: '1768467600.000100', text: 'New ticket' },
      actions: [{ action_id: action, block_id: 'ticket', value: ticketId, type: 'button', action_ts: `${NOW_SECONDS}.1` }],
    };
  }
  function post(payload: object, options: { timestamp?: number; secret?: string } = {}) {
    const form = slackInteraction(options.secret ?? SIGNING_SECRET, payload, { timestamp: options.timestamp ?? NOW_SECONDS });
    return harness.app.inject({ method: 'POST', url: '/v1/integrations/slack/interactions', ...form });
  }
  /** Slack's click, kept by the URL, then handled by the worker's handler with the payload as it was kept. */
  async function clickAndRun(payload: ReturnType<typeof click>): Promise<string> {
    expect((await post(payload)).statusCode).toBe(200);
    const row = await harness.db
      .selectFrom('slack_events')
      .selectAll()
      .where('event_id', '=', `interaction:${payload.trigger_id}`)
      .executeTakeFirstOrThrow();
    return runSlackInteraction(workerDeps(), installation, JSON.parse(row.payload));
  }

  it('keeps a signed click once, as a job by its trigger_id, and answers Slack an empty 200', async () => {
    await harness.db.deleteFrom('slack_events').execute();
    const payload = click(TRIAGE_ACTIONS.assignToMe, 'T-1', { trigger: '1337.42.kept' });
    const answer = await post(payload);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('');
    // A replay inside the window (the same trigger, signed again later) is answered and kept once.
    expect((await post(payload)).statusCode).toBe(200);
    expect((await post(payload, { timestamp: NOW_SECONDS - 200 })).statusCode).toBe(200);
    const rows = await eventRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event_id: 'interaction:1337.42.kept',
      organization_id: acme.organizationId,
      team_id: 'T0ACME',
      event_type: 'block_actions',
      channel_id: 'C0TRIAGE',
      status: 'pending',
    });
    expect(JSON.parse(rows[0]?.payload ?? '{}')).toEqual(payload);
    expect(slack.calls).toEqual([]);
  });

  it('refuses a missing, stale, future or wrong signature, another body type and a malformed form, writing nothing', async () => {
    await harness.db.deleteFrom('slack_events').execute();
    const payload = click(TRIAGE_ACTIONS.close, 'T-1');
    const form = slackInteraction(SIGNING_SECRET, payload, { timestamp: NOW_SECONDS });
    const unsigned = await harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/interactions',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.payload,
    });
    expect(unsigned.statusCode).toBe(401);
    expect(Object.keys(unsigned.json()).sort()).toEqual(['error', 'message', 'statusCode']);
    expect((await post(payload, { timestamp: NOW_SECONDS - 301 })).statusCode).toBe(401);
    expect((await post(payload, { timestamp: NOW_SECONDS + 301 })).statusCode).toBe(401);
    expect((await post(payload, { secret: 'another-secret' })).statusCode).toBe(401);
    const altered = await harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/interactions',
      headers: form.headers,
      payload: slackInteraction(SIGNING_SECRET, { ...payload, team: { id: 'T0OTHER' } }, { timestamp: NOW_SECONDS }).payload,
    });
    expect(altered.statusCode).toBe(401);
    const json = await harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/interactions',
      headers: { ...form.headers, 'content-type': 'application/json' },
      payload: form.payload,
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ statusCode: 415 });
    // Signed, but not Slack's form: no payload field, a payload that is no JSON object.
    for (const body of ['a=1', 'payload=not-json', `payload=${encodeURIComponent('[1]')}`]) {
      const headers = slackHeaders(SIGNING_SECRET, body, {
        timestamp: NOW_SECONDS,
        contentType: 'application/x-www-form-urlencoded',
      });
      const response = await harness.app.inject({
        method: 'POST',
        url: '/v1/integrations/slack/interactions',
        headers,
        payload: body,
      });
      expect(response.statusCode, body).toBe(400);
    }
    expect(await eventRows()).toEqual([]);
  });

  it('ignores a click from a workspace no organization installed, or one without a trigger: 200, nothing written', async () => {
    await harness.db.deleteFrom('slack_events').execute();
    expect((await post(click(TRIAGE_ACTIONS.close, 'T-1', { slackTeamId: 'T0NOBODY' }))).statusCode).toBe(200);
    const { trigger_id: _, ...untriggered } = click(TRIAGE_ACTIONS.close, 'T-1');
    expect((await post(untriggered)).statusCode).toBe(200);
    // A workspace whose app was uninstalled since.
    await install(globex, 'T0GLOBEX');
    const uninstalled = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0GLOBEX',
      event_id: 'Ev0UNINSTALL',
      event: { type: 'app_uninstalled' },
    });
    const revoke = await harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/events',
      headers: slackHeaders(SIGNING_SECRET, uninstalled, { timestamp: NOW_SECONDS }),
      payload: uninstalled,
    });
    expect(revoke.json()).toEqual({ ok: true });
    expect((await findSlackInstallationByTeam(harness.db, 'T0GLOBEX'))?.status).toBe('revoked');
    expect((await post(click(TRIAGE_ACTIONS.close, 'T-1', { slackTeamId: 'T0GLOBEX' }))).statusCode).toBe(200);
    expect(await eventRows()).toEqual([]);
    expect(slack.calls.map((call) => call.method)).toEqual(['oauth.v2.access']);
  });

  it('"Assign to me" assigns the ticket to the agent matched by email, and the timeline names them', async () => {
    const ticketId = await makeTicket(acme, teamId);
    slack.script('users.info', slackPerson('U0AVA', 'T0ACME', 'AVA@acme.test'));
    expect(await clickAndRun(click(TRIAGE_ACTIONS.assignToMe, ticketId))).toBe('assigned');
    expect(slack.calls.map((call) => [call.method, call.params.user, call.token])).toEqual([
      ['users.info', 'U0AVA', 'xoxb-T0ACME-token'],
    ]);
    expect(await ticket(acme, ticketId)).toMatchObject({ assignedAgentId: agentId, assignedAgent: 'Ava Agent' });
    const [latest] = await activities(acme, ticketId);
    expect(latest).toMatchObject({ field: 'assignee', actor: { type: 'user', id: agentId, name: 'Ava Agent' } });
  });

  it('"Close" closes the ticket as the agent', async () => {
    const ticketId = await makeTicket(acme, teamId);
    slack.script('users.info', slackPerson('U0AVA', 'T0ACME', AGENT_EMAIL));
    expect(await clickAndRun(click(TRIAGE_ACTIONS.close, ticketId))).toBe('closed');
    const closed = await ticket(acme, ticketId);
    expect(closed.status).toBe('Closed');
    expect(closed.closedAt).not.toBeNull();
    const [latest] = await activities(acme, ticketId);
    expect(latest).toMatchObject({ actor: { type: 'user', id: agentId } });
  });

  it("changes nothing for a click by someone who is not an agent, from another workspace, or on another organization's ticket", async () => {
    const ticketId = await makeTicket(acme, teamId);
    const before = { ticket: await ticket(acme, ticketId), activities: await activities(acme, ticketId) };
    // A person of the workspace whose email is no user's.
    slack.script('users.info', slackPerson('U0STRANGER', 'T0ACME', 'stranger@acme.test'));
    expect(await clickAndRun(click(TRIAGE_ACTIONS.close, ticketId, { user: 'U0STRANGER' }))).toBe('ignored:not_an_agent');
    // A customer in a shared channel showing an agent's email: not the workspace's person.
    slack.script('users.info', slackPerson('U0GUEST', 'T0CUSTOMER', AGENT_EMAIL));
    expect(await clickAndRun(click(TRIAGE_ACTIONS.close, ticketId, { user: 'U0GUEST' }))).toBe('ignored:outside_the_workspace');
    slack.script('users.info', { ok: false, error: 'user_not_found' });
    expect(await clickAndRun(click(TRIAGE_ACTIONS.close, ticketId, { user: 'U0GONE' }))).toBe('ignored:slack_user_not_found');
    expect(await ticket(acme, ticketId)).toEqual(before.ticket);
    expect(await activities(acme, ticketId)).toEqual(before.activities);

    const globexTeam = await makeTeam(harness, globex, { name: 'Globex support', identifier: 'GLO' });
    const foreignId = await makeTicket(globex, globexTeam.teamId);
    const foreignBefore = await ticket(globex, foreignId);
    slack.script('users.info', slackPerson('U0AVA', 'T0ACME', AGENT_EMAIL), slackPerson('U0AVA', 'T0ACME', AGENT_EMAIL));
    expect(await clickAndRun(click(TRIAGE_ACTIONS.close, foreignId))).toBe('ignored:ticket_not_found');
    expect(await clickAndRun(click(TRIAGE_ACTIONS.assignToMe, foreignId))).toBe('ignored:ticket_not_found');
    expect(await ticket(globex, foreignId)).toEqual(foreignBefore);

    // The link button, and a payload that is not a button click, need nothing and ask Slack nothing.
    slack.calls.length = 0;
    expect(await clickAndRun(click(TRIAGE_ACTIONS.open, ticketId))).toBe('ignored:no_triage_action');
    expect(
      await runSlackInteraction(workerDeps(), installation, {
        type: 'view_submission',
        actions: 'nonsense' as never,
      }),
    ).toBe('ignored:unsupported');
    expect(slack.calls).toEqual([]);
  });

  /** A reaction H1's worker hands over from a `reaction_added` event. */
  const react = (reaction: string, channelId: string, messageTs: string, slackUserId = 'U0AVA') =>
    runSlackReactionCommand(workerDeps(), {
      organizationId: acme.organizationId,
      installation,
      reaction,
      slackUserId,
      channelId,
      messageTs,
    });
  const link = (organizationId: string, ticketId: string, channelId: string, messageTs: string) =>
    linkSlackMessage(harness.db, {
      id: harness.ids.ulid(),
      organization_id: organizationId,
      channel_id: channelId,
      message_ts: messageTs,
      ticket_id: ticketId,
      comment_id: null,
      direction: 'inbound',
      created_at: TEST_NOW,
    });
  const thread = (ticketId: string, threadTs: string, triageTs: string | null) =>
    insertSlackTicketThread(harness.db, {
      ticket_id: ticketId,
      organization_id: acme.organizationId,
      channel_id: 'C0CUSTOMER',
      thread_ts: threadTs,
      triage_channel_id: triageTs ? 'C0TRIAGE' : null,
      triage_ts: triageTs,
      created_at: TEST_NOW,
    });

  it("👀 on a ticket's customer message or thread assigns it to the reacting agent, ✅ on its triage post closes it", async () => {
    const first = await makeTicket(acme, teamId);
    await thread(first, '1768467000.000100', '1768467100.000100');
    await link(acme.organizationId, first, 'C0CUSTOMER', '1768467000.000200');
    slack.script('users.info', slackPerson('U0AVA', 'T0ACME', AGENT_EMAIL), slackPerson('U0AVA', 'T0ACME', AGENT_EMAIL));
    expect(await react('eyes', 'C0CUSTOMER', '1768467000.000200')).toBe('assigned');
    expect(await ticket(acme, first)).toMatchObject({ assignedAgentId: agentId, closedAt: null });
    expect((await activities(acme, first))[0]).toMatchObject({ field: 'assignee', actor: { type: 'user', id: agentId } });
    expect(await react('white_check_mark', 'C0TRIAGE', '1768467100.000100')).toBe('closed');
    expect((await ticket(acme, first)).status).toBe('Closed');
    expect(slack.calls.map((call) => [call.method, call.params.user])).toEqual([
      ['users.info', 'U0AVA'],
      ['users.info', 'U0AVA'],
    ]);

    // The thread's first message names its ticket even with no link kept for it.
    const second = await makeTicket(acme, teamId);
    await thread(second, '1768467200.000100', null);
    slack.script('users.info', slackPerson('U0AVA', 'T0ACME', AGENT_EMAIL));
    expect(await react('eyes', 'C0CUSTOMER', '1768467200.000100')).toBe('assigned');
    expect(await ticket(acme, second)).toMatchObject({ assignedAgentId: agentId });
  });

  it("runs nothing for a stranger's reaction, another emoji, or a message of no ticket (of this organization)", async () => {
    const ticketId = await makeTicket(acme, teamId);
    await link(acme.organizationId, ticketId, 'C0CUSTOMER', '1768467300.000100');
    const before = { ticket: await ticket(acme, ticketId), activities: await activities(acme, ticketId) };
    slack.script('users.info', slackPerson('U0CORA', 'T0ACME', 'cora@customer.test'));
    expect(await react('white_check_mark', 'C0CUSTOMER', '1768467300.000100', 'U0CORA')).toBe('ignored:not_an_agent');
    slack.script('users.info', slackPerson('U0GUEST', 'T0CUSTOMER', AGENT_EMAIL));
    expect(await react('eyes', 'C0CUSTOMER', '1768467300.000100', 'U0GUEST')).toBe('ignored:outside_the_workspace');
    slack.script('users.info', slackPerson('U0NOMAIL', 'T0ACME', null));
    expect(await react('eyes', 'C0CUSTOMER', '1768467300.000100', 'U0NOMAIL')).toBe('ignored:no_email');
    // An agent an admin disabled acts no more.
    const { userId: benId } = await makeUser(harness, acme.organizationId, { name: 'Ben', email: 'ben@acme.test' });
    const disable = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/users/${benId}`,
      headers: acme.headers,
      payload: { disabled: true },
    });
    expect(disable.statusCode, disable.body).toBe(200);
    slack.script('users.info', slackPerson('U0BEN', 'T0ACME', 'ben@acme.test'));
    expect(await react('eyes', 'C0CUSTOMER', '1768467300.000100', 'U0BEN')).toBe('ignored:not_an_agent');
    expect(await ticket(acme, ticketId)).toEqual(before.ticket);
    expect(await activities(acme, ticketId)).toEqual(before.activities);

    // Neither asks Slack who reacted: no command, or no ticket to run it on.
    slack.calls.length = 0;
    expect(await react('thumbsup', 'C0CUSTOMER', '1768467300.000100')).toBe('ignored:not_a_command');
    expect(await react('eyes', 'C0CUSTOMER', '1768467399.000100')).toBe('ignored:no_ticket');
    // Another organization's link of the same channel and message is not this organization's ticket.
    const globexTeam = await makeTeam(harness, globex, { name: 'Globex desk', identifier: 'GLD' });
    const foreignId = await makeTicket(globex, globexTeam.teamId);
    await link(globex.organizationId, foreignId, 'C0SHARED', '1768467400.000100');
    expect(await react('white_check_mark', 'C0SHARED', '1768467400.000100')).toBe('ignored:no_ticket');
    expect(slack.calls).toEqual([]);
    expect((await ticket(globex, foreignId)).closedAt).toBeNull();
  });
});
