import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { installSlack, makeSlackTicket, slackDepsOf, slackEnv } from '../../../test/slack-app.js';
import { type SlackCall, startSlackServer, type TestSlackServer } from '../../../test/slack-server.js';
import { saveSlackChannel } from './slack-channel.repository.js';
import { TRIAGE_ACTIONS } from './slack-interactions.service.js';
import { createSlackTriageWorker, type SlackTriageWorker } from './slack-triage.worker.js';

/** The text of every block and field of a post, and its buttons, as Slack would show them. */
function readPost(call: SlackCall | undefined) {
  const blocks = JSON.parse(String(call?.params.blocks ?? '[]')) as {
    type: string;
    text?: { text: string };
    fields?: { text: string }[];
    elements?: { action_id: string; value: string; url?: string; text: { text: string } }[];
  }[];
  return {
    channel: call?.params.channel,
    ts: call?.params.ts,
    text: blocks.flatMap((block) => [block.text?.text ?? '', ...(block.fields ?? []).map((each) => each.text)]).join('\n'),
    buttons: blocks
      .flatMap((block) => block.elements ?? [])
      .map((each) => [each.text.text, each.action_id, each.value, each.url ?? null]),
  };
}

describe.each(DIALECTS)('Slack triage posts on %s', (dialect) => {
  let harness: TestApp;
  let slack: TestSlackServer;
  let acme: TestOrganization;
  let desk: TestTeam;
  let billing: TestTeam;
  let agent: Awaited<ReturnType<typeof makeUser>>;
  let worker: SlackTriageWorker;
  let thread = 0;

  beforeAll(async () => {
    slack = await startSlackServer();
    harness = await buildTestApp(dialect, { env: slackEnv(slack) });
    acme = await makeOrganization(harness, { name: 'Acme', adminEmail: 'ada@acme.test' });
    agent = await makeUser(harness, acme.organizationId, { name: 'Bo Agent', email: 'bo@acme.test' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DSK' });
    billing = await makeTeam(harness, acme, { name: 'Billing', identifier: 'BIL' });
    await harness.db
      .insertInto('team_members')
      .values({
        team_id: desk.teamId,
        user_id: agent.userId,
        organization_id: acme.organizationId,
        is_admin: false,
        invited_by_id: null,
        joined_at: TEST_NOW,
      })
      .execute();
    await installSlack(harness, slack, acme, 'T0ACME');
    const at = TEST_NOW;
    const channel = (channelId: string, teamId: string | null) =>
      saveSlackChannel(
        harness.db,
        {
          id: harness.ids.ulid(),
          organization_id: acme.organizationId,
          channel_id: channelId,
          name: channelId.toLowerCase(),
          kind: 'triage',
          team_id: teamId,
          created_at: at,
          updated_at: at,
        },
        { kind: 'triage', team_id: teamId },
      );
    await channel('C0DESKTRIAGE', desk.teamId);
    await channel('C0ALLTRIAGE', null);
    await channel('C0BILLTRIAGE', billing.teamId);
    worker = createSlackTriageWorker(slackDepsOf(harness));
  });
  beforeEach(() => {
    harness.clock.set(TEST_NOW);
    slack.calls.length = 0;
  });
  afterAll(async () => {
    await harness?.close();
    await slack?.close();
  });

  const patchTicket = (id: string, payload: object) =>
    harness.app.inject({ method: 'PATCH', url: `/v1/tickets/${id}`, headers: acme.headers, payload });

  it("posts a new ticket from Slack in its team's triage channels and those of every team, with its fields and buttons", async () => {
    thread++;
    const ticket = await makeSlackTicket(harness, acme, {
      teamId: desk.teamId,
      channelId: 'C0CUSTOMER',
      threadTs: `1700000100.00${thread}`,
      title: 'Export <fails> & hangs',
      requestorEmail: 'pat@customer.test',
    });
    slack.script('chat.postMessage', { ok: true, ts: '1700000200.000100' }, { ok: true, ts: '1700000200.000200' });
    await worker.runOnce();
    const posts = slack.calls.filter((call) => call.method === 'chat.postMessage');
    expect(posts.map((call) => [call.token, call.params.channel])).toEqual([
      ['xoxb-T0ACME-token', 'C0ALLTRIAGE'],
      ['xoxb-T0ACME-token', 'C0DESKTRIAGE'],
    ]);
    const post = readPost(posts[1]);
    expect(post.text).toContain(`${ticket.ticketIdentifier}: Export &lt;fails&gt; &amp; hangs`);
    expect(post.text).toContain('*Requester*\npat (pat@customer.test)');
    expect(post.text).toContain('*Priority*\nMedium');
    expect(post.text).toContain('*Status*\nOpen');
    expect(post.text).toContain('*Assignee*\nUnassigned');
    expect(post.text).toContain('*Account*\n—');
    expect(post.buttons).toEqual([
      ['Assign to me', TRIAGE_ACTIONS.assignToMe, ticket.id, null],
      ['Close', TRIAGE_ACTIONS.close, ticket.id, null],
      ['Open in Switchboard', TRIAGE_ACTIONS.open, ticket.id, `https://support.example.com/app/tickets/${ticket.id}`],
    ]);
    const saved = await harness.db
      .selectFrom('slack_ticket_threads')
      .selectAll()
      .where('ticket_id', '=', ticket.id)
      .executeTakeFirst();
    expect(saved).toMatchObject({ triage_channel_id: 'C0ALLTRIAGE', triage_ts: '1700000200.000100' });
    const links = await harness.db
      .selectFrom('slack_message_links')
      .select(['channel_id', 'message_ts', 'direction'])
      .where('ticket_id', '=', ticket.id)
      .orderBy('channel_id')
      .execute();
    expect(links).toEqual([
      { channel_id: 'C0ALLTRIAGE', message_ts: '1700000200.000100', direction: 'triage' },
      { channel_id: 'C0DESKTRIAGE', message_ts: '1700000200.000200', direction: 'triage' },
    ]);

    // Assigned, then closed: both posts updated in place, once per change.
    slack.calls.length = 0;
    slack.script('chat.update', ...Array.from({ length: 8 }, () => ({ ok: true as const })));
    expect((await patchTicket(ticket.id, { assignedAgentId: agent.userId })).statusCode).toBe(200);
    await worker.runOnce();
    const assigned = slack.calls.filter((call) => call.method === 'chat.update').map(readPost);
    expect(assigned.length).toBeGreaterThanOrEqual(2);
    expect(assigned.map((each) => [each.channel, each.ts])).toContainEqual(['C0DESKTRIAGE', '1700000200.000200']);
    expect(assigned.at(-1)?.text).toContain('*Assignee*\nBo Agent');

    slack.calls.length = 0;
    expect((await patchTicket(ticket.id, { statusName: 'Closed' })).statusCode).toBe(200);
    await worker.runOnce();
    const closed = slack.calls.filter((call) => call.method === 'chat.update').map(readPost);
    expect(closed.map((each) => each.channel)).toEqual(expect.arrayContaining(['C0ALLTRIAGE', 'C0DESKTRIAGE']));
    expect(closed.at(-1)?.text).toContain('*Status*\nClosed');
    expect(slack.calls.filter((call) => call.method === 'chat.postMessage')).toEqual([]);
  });

  it('posts nothing for a ticket not from Slack, and waits out a rate limit before posting', async () => {
    await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: acme.headers,
      payload: { title: 'By email', requestorEmail: 'sam@customer.test', teamId: desk.teamId },
    });
    await worker.runOnce();
    expect(slack.calls).toEqual([]);

    thread++;
    await makeSlackTicket(harness, acme, { teamId: billing.teamId, channelId: 'C0CUSTOMER', threadTs: `1700000100.00${thread}` });
    slack.script('chat.postMessage', { ratelimited: true, retryAfterSeconds: 20 });
    await worker.runOnce();
    expect(slack.calls.map((call) => call.method)).toEqual(['chat.postMessage']);
    harness.clock.advance(10_000);
    await worker.runOnce();
    expect(slack.calls).toHaveLength(1);
    harness.clock.advance(10_000);
    slack.script('chat.postMessage', { ok: true, ts: '1700000300.000100' }, { ok: true, ts: '1700000300.000200' });
    await worker.runOnce();
    expect(slack.calls.slice(1).map((call) => call.params.channel)).toEqual(['C0ALLTRIAGE', 'C0BILLTRIAGE']);
  });

  it("disconnects a triage channel Slack refuses and goes on with the organization's other channels", async () => {
    const other = await makeOrganization(harness, { name: 'Initech', adminEmail: 'ian@initech.test' });
    const team = await makeTeam(harness, other, { name: 'Help', identifier: 'HLP' });
    await installSlack(harness, slack, other, 'T0INITECH');
    for (const channelId of ['C0INIA', 'C0INIB']) {
      await saveSlackChannel(
        harness.db,
        {
          id: harness.ids.ulid(),
          organization_id: other.organizationId,
          channel_id: channelId,
          name: channelId,
          kind: 'triage',
          created_at: TEST_NOW,
          updated_at: TEST_NOW,
        },
        { kind: 'triage' },
      );
    }
    await makeSlackTicket(harness, other, { teamId: team.teamId, channelId: 'C0INICUST', threadTs: '1700000400.000100' });
    slack.calls.length = 0;
    slack.script('chat.postMessage', { ok: false, error: 'is_archived' }, { ok: true, ts: '1700000400.000200' });
    await worker.runOnce();
    expect(slack.calls.map((call) => call.params.channel)).toEqual(['C0INIA', 'C0INIB']);
    const channels = await harness.db
      .selectFrom('slack_channels')
      .select(['channel_id', 'status', 'disconnected_reason'])
      .where('organization_id', '=', other.organizationId)
      .orderBy('channel_id')
      .execute();
    expect(channels).toEqual([
      { channel_id: 'C0INIA', status: 'disconnected', disconnected_reason: 'is_archived' },
      { channel_id: 'C0INIB', status: 'connected', disconnected_reason: null },
    ]);
    const told = await harness.db
      .selectFrom('email_outbox')
      .select('to_address')
      .where('dedupe_key', 'like', 'slack-channel:C0INIA%')
      .execute();
    expect(told).toEqual([{ to_address: 'ian@initech.test' }]);
  });
});
