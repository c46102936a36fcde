import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { installSlack, makeSlackTicket, slackDepsOf, slackEnv } from '../../../test/slack-app.js';
import { startSlackServer, type TestSlackServer } from '../../../test/slack-server.js';
import { saveSlackChannel } from './slack-channel.repository.js';
import { createSlackPostWorker, type SlackPostWorker } from './slack-post.worker.js';

describe.each(DIALECTS)('Agent replies posted to Slack threads on %s', (dialect) => {
  let harness: TestApp;
  let slack: TestSlackServer;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let worker: SlackPostWorker;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let thread = 0;

  beforeAll(async () => {
    slack = await startSlackServer();
    harness = await buildTestApp(dialect, { env: slackEnv(slack) });
    acme = await makeOrganization(harness, { name: 'Acme', adminEmail: 'ada@acme.test' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia' });
    await harness.db
      .updateTable('users')
      .set({ name: 'Ada Agent', avatar_url: 'https://cdn.acme.test/ada.png' })
      .where('id', '=', acme.userId)
      .execute();
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DSK' });
    await installSlack(harness, slack, acme, 'T0ACME');
    worker = createSlackPostWorker(slackDepsOf(harness), { baseDelayMs: 1000 });
  });
  beforeEach(() => {
    harness.clock.set(TEST_NOW);
    slack.calls.length = 0;
  });
  afterAll(async () => {
    await harness?.close();
    await slack?.close();
  });

  async function slackTicket(channelId = 'C0CUSTOMER') {
    thread++;
    return makeSlackTicket(harness, acme, { teamId: desk.teamId, channelId, threadTs: `1700000000.00${thread}` });
  }
  const comment = (ticketId: string, payload: object, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'POST', url: `/v1/tickets/${ticketId}/comment`, headers, payload });
  const listComments = (ticketId: string, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'GET', url: `/v1/tickets/${ticketId}/comments`, headers });
  const slackDeliveryOf = async (ticketId: string, commentId: string) => {
    const listed = (await listComments(ticketId)).json().data as { id: string; slackDelivery?: unknown }[];
    return listed.find((each) => each.id === commentId)?.slackDelivery;
  };
  const postCalls = () => slack.calls.filter((call) => call.method === 'chat.postMessage');

  it("posts an agent's public reply in the ticket's thread under the agent's name and picture, as Slack mrkdwn", async () => {
    const ticket = await slackTicket();
    const written = await comment(ticket.id, { content: 'Fixed in **v2** <soon> & see [the notes](https://acme.test/notes)' });
    expect(written.statusCode, written.body).toBe(201);
    const created = written.json().data;
    expect(created.slackDelivery).toMatchObject({ status: 'pending', attempts: 0, lastError: null, postedAt: null });

    slack.script('chat.postMessage', { ok: true, channel: 'C0CUSTOMER', ts: '1700000001.000100' });
    expect(await worker.runOnce()).toBe(1);
    expect(postCalls().map((call) => [call.token, call.params])).toEqual([
      [
        'xoxb-T0ACME-token',
        expect.objectContaining({
          channel: 'C0CUSTOMER',
          thread_ts: `1700000000.00${thread}`,
          text: 'Fixed in *v2* &lt;soon&gt; &amp; see <https://acme.test/notes|the notes>',
          username: 'Ada Agent',
          icon_url: 'https://cdn.acme.test/ada.png',
        }),
      ],
    ]);
    expect(await slackDeliveryOf(ticket.id, created.id)).toMatchObject({ status: 'posted', attempts: 1, postedAt: TEST_NOW });
    const links = await harness.db.selectFrom('slack_message_links').selectAll().where('ticket_id', '=', ticket.id).execute();
    expect(links).toMatchObject([{ message_ts: '1700000001.000100', comment_id: created.id, direction: 'outbound' }]);
    // Posted once: nothing is due any more.
    expect(await worker.runOnce()).toBe(0);
  });

  it('never posts an internal note, nor a comment on a ticket that is not from Slack', async () => {
    const ticket = await slackTicket();
    const note = await comment(ticket.id, { content: 'The customer is on the old plan', commentType: 'note' });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json().data.slackDelivery).toBeNull();
    const emailTicket = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: acme.headers,
      payload: { title: 'By email', requestorEmail: 'sam@customer.test', teamId: desk.teamId },
    });
    const reply = await comment(emailTicket.json().data.id, { content: 'Hello by email' });
    expect(reply.json().data.slackDelivery).toBeNull();
    expect(await worker.runOnce()).toBe(0);
    expect(slack.calls).toEqual([]);
    expect(await harness.db.selectFrom('slack_posts').select('id').where('ticket_id', '=', ticket.id).execute()).toEqual([]);
  });

  it("retries a rate-limited post when Slack's Retry-After says, and says so on the comment meanwhile", async () => {
    const ticket = await slackTicket();
    const created = (await comment(ticket.id, { content: 'First' })).json().data;
    const second = (await comment(ticket.id, { content: 'Second' })).json().data;
    slack.script('chat.postMessage', { ratelimited: true, retryAfterSeconds: 30 });
    expect(await worker.runOnce()).toBe(1);
    expect(await slackDeliveryOf(ticket.id, created.id)).toMatchObject({
      status: 'retrying',
      attempts: 1,
      lastError: expect.stringContaining('ratelimited'),
      nextAttemptAt: '2026-01-15T09:00:30.000Z',
    });
    // The ticket's later reply waits behind it, so the thread keeps the order agents wrote in.
    harness.clock.advance(29_000);
    expect(await worker.runOnce()).toBe(0);
    harness.clock.advance(1_000);
    slack.script('chat.postMessage', { ok: true, ts: '1700000002.000100' }, { ok: true, ts: '1700000002.000200' });
    expect(await worker.runOnce()).toBe(2);
    expect(postCalls().map((call) => call.params.text)).toEqual(['First', 'First', 'Second']);
    expect(await slackDeliveryOf(ticket.id, created.id)).toMatchObject({ status: 'posted', attempts: 2, lastError: null });
    expect(await slackDeliveryOf(ticket.id, second.id)).toMatchObject({ status: 'posted', attempts: 1 });
  });

  it('backs off when Slack is unreachable and fails the post with the reason after the last attempt', async () => {
    const ticket = await slackTicket();
    const created = (await comment(ticket.id, { content: 'Are you there?' })).json().data;
    const limited = createSlackPostWorker(slackDepsOf(harness), { baseDelayMs: 1000, maxAttempts: 2 });
    slack.script('chat.postMessage', { ok: false, error: 'internal_error' }, { ok: false, error: 'internal_error' });
    expect(await limited.runOnce()).toBe(1);
    expect(await slackDeliveryOf(ticket.id, created.id)).toMatchObject({ status: 'retrying', lastError: 'internal_error' });
    harness.clock.advance(1_000);
    expect(await limited.runOnce()).toBe(1);
    expect(await slackDeliveryOf(ticket.id, created.id)).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastError: 'internal_error',
    });
  });

  it('fails the post when the bot is not in the channel, disconnects the channel and tells the admins once', async () => {
    const at = harness.clock.now().toISOString();
    await saveSlackChannel(
      harness.db,
      {
        id: harness.ids.ulid(),
        organization_id: acme.organizationId,
        channel_id: 'C0GONE',
        name: 'acme-gone',
        kind: 'customer',
        created_at: at,
        updated_at: at,
      },
      { kind: 'customer' },
    );
    const ticket = await slackTicket('C0GONE');
    const created = (await comment(ticket.id, { content: 'One' })).json().data;
    const again = (await comment(ticket.id, { content: 'Two' })).json().data;
    slack.script('chat.postMessage', { ok: false, error: 'not_in_channel' }, { ok: false, error: 'not_in_channel' });
    expect(await worker.runOnce()).toBe(2);
    expect(await slackDeliveryOf(ticket.id, created.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('not_in_channel'),
    });
    expect(await slackDeliveryOf(ticket.id, again.id)).toMatchObject({ status: 'failed' });
    const channel = await harness.db
      .selectFrom('slack_channels')
      .selectAll()
      .where('channel_id', '=', 'C0GONE')
      .executeTakeFirst();
    expect(channel).toMatchObject({ status: 'disconnected', disconnected_reason: 'not_in_channel' });
    const told = await harness.db
      .selectFrom('email_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('organization_id', '=', acme.organizationId)
      .where('dedupe_key', 'like', 'slack-channel:%')
      .execute();
    expect(told).toEqual([
      { to_address: 'ada@acme.test', subject: 'Slack: a channel was disconnected', text_body: expect.stringContaining('C0GONE') },
    ]);
    // Nothing is lost: the ticket and its comments stay.
    expect((await listComments(ticket.id)).json().data).toHaveLength(2);
  });

  it('revokes the installation when Slack no longer knows the token, and tells the admins', async () => {
    const other = await makeOrganization(harness, { name: 'Initech', adminEmail: 'ian@initech.test' });
    const team = await makeTeam(harness, other, { name: 'Help', identifier: 'HLP' });
    await installSlack(harness, slack, other, 'T0INITECH');
    const ticket = await makeSlackTicket(harness, other, {
      teamId: team.teamId,
      channelId: 'C0INI',
      threadTs: '1700000009.000100',
    });
    const created = (await comment(ticket.id, { content: 'Hello' }, other.headers)).json().data;
    slack.script('chat.postMessage', { ok: false, error: 'token_revoked' });
    expect(await worker.runOnce()).toBe(1);
    const installation = await harness.db
      .selectFrom('slack_installations')
      .select(['status', 'revoked_reason'])
      .where('organization_id', '=', other.organizationId)
      .executeTakeFirst();
    expect(installation).toEqual({ status: 'revoked', revoked_reason: 'token_revoked' });
    const listed = (await listComments(ticket.id, other.headers)).json().data;
    expect(listed[0]).toMatchObject({
      id: created.id,
      slackDelivery: { status: 'failed', lastError: expect.stringContaining('token_revoked') },
    });
    const told = await harness.db
      .selectFrom('email_outbox')
      .select('to_address')
      .where('dedupe_key', 'like', 'slack-installation:%')
      .execute();
    expect(told).toEqual([{ to_address: 'ian@initech.test' }]);
    // Revoked: a later reply fails without calling Slack.
    slack.calls.length = 0;
    await comment(ticket.id, { content: 'Still there?' }, other.headers);
    expect(await worker.runOnce()).toBe(1);
    expect(slack.calls).toEqual([]);
  });

  it("shows a post's state to the author and admins only, and never to another organization", async () => {
    const ticket = await slackTicket();
    await comment(ticket.id, { content: 'Visible state' });
    const foreign = await listComments(ticket.id, globex.headers);
    expect(foreign.statusCode).toBe(404);
    const foreignWrite = await comment(ticket.id, { content: 'Not yours' }, globex.headers);
    expect(foreignWrite.statusCode).toBe(404);
    const byMember = await listComments(ticket.id, member.headers);
    expect(byMember.statusCode, byMember.body).toBe(200);
    expect(byMember.json().data[0]).not.toHaveProperty('slackDelivery');
    expect(await harness.db.selectFrom('slack_posts').select('id').where('ticket_id', '=', ticket.id).execute()).toHaveLength(1);
  });
});
