import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { inboundDepsOf, inboundEnv } from '../../../test/inbound.js';
import { installSlack, slackDepsOf, slackEnv, TEST_SLACK_SIGNING_SECRET } from '../../../test/slack-app.js';
import {
  slackHeaders,
  slackInteraction,
  slackPerson,
  startSlackServer,
  type TestSlackServer,
} from '../../../test/slack-server.js';
import { createSlackWorker, type SlackWorker } from './slack.worker.js';
import { saveSlackChannel } from './slack-channel.repository.js';
import { TRIAGE_ACTIONS } from './slack-interactions.service.js';
import { createSlackPostWorker, type SlackPostWorker } from './slack-post.worker.js';
import { createSlackTriageWorker, type SlackTriageWorker } from './slack-triage.worker.js';

const NOW_SECONDS = Math.floor(Date.parse(TEST_NOW) / 1000);
const TEAM = 'T0ACME';
const PARTNER_TEAM = 'T0PARTNER';
const CUSTOMER = 'U0DANA';
const AGENT = 'U0BO';
const CUSTOMER_CHANNEL = 'C0PARTNER';
const TRIAGE_CHANNEL = 'C0TRIAGE';
const QUESTION_TS = `${NOW_SECONDS - 30}.000100`;
const TRIAGE_TS = `${NOW_SECONDS - 20}.000100`;

/**
 * The whole loop through the three workers, as a B2B team lives it: a partner's question in a shared
 * channel becomes a ticket, is posted for triage, taken with 👀 in Slack, answered from Switchboard
 * in the customer's thread, followed up by the customer there, and closed with the triage post's
 * button; the post follows every change.
 */
describe.each(DIALECTS)('Slack, worked both ways, on %s', (dialect) => {
  let harness: TestApp;
  let slack: TestSlackServer;
  let acme: TestOrganization;
  let support: TestTeam;
  let bo: Awaited<ReturnType<typeof makeUser>>;
  let inbound: SlackWorker;
  let triage: SlackTriageWorker;
  let posts: SlackPostWorker;
  let cleanup: () => void;
  let eventSeq = 0;

  beforeAll(async () => {
    slack = await startSlackServer();
    const env = inboundEnv(slackEnv(slack));
    cleanup = env.cleanup;
    harness = await buildTestApp(dialect, { env: env.env });
    acme = await makeOrganization(harness, { name: 'Acme', adminEmail: 'ada@acme.test' });
    support = await makeTeam(harness, acme, { name: 'Support', identifier: 'SUP' });
    bo = await makeUser(harness, acme.organizationId, { name: 'Bo Agent', email: 'bo@acme.test' });
    await harness.db
      .insertInto('team_members')
      .values({
        team_id: support.teamId,
        user_id: bo.userId,
        organization_id: acme.organizationId,
        is_admin: false,
        invited_by_id: null,
        joined_at: TEST_NOW,
      })
      .execute();
    await installSlack(harness, slack, acme, TEAM);
    for (const [channelId, kind, teamId] of [
      [CUSTOMER_CHANNEL, 'customer', support.teamId],
      [TRIAGE_CHANNEL, 'triage', null],
    ] as const) {
      await saveSlackChannel(
        harness.db,
        {
          id: harness.ids.ulid(),
          organization_id: acme.organizationId,
          channel_id: channelId,
          name: channelId.toLowerCase(),
          kind,
          team_id: teamId,
          detection_mode: 'rules',
          created_at: TEST_NOW,
          updated_at: TEST_NOW,
        },
        { kind },
      );
    }
    inbound = createSlackWorker(inboundDepsOf(harness));
    triage = createSlackTriageWorker(slackDepsOf(harness));
    posts = createSlackPostWorker(slackDepsOf(harness));
  });
  afterAll(async () => {
    await harness?.close();
    await slack?.close();
    cleanup?.();
  });

  async function sendEvent(event: Record<string, unknown>) {
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: TEAM,
      api_app_id: 'A0SWITCH',
      event_id: `EvTrip${++eventSeq}`,
      event_time: NOW_SECONDS,
      event,
    });
    const answer = await harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/events',
      headers: slackHeaders(TEST_SLACK_SIGNING_SECRET, body, { timestamp: NOW_SECONDS }),
      payload: body,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    while ((await inbound.runOnce()) > 0) {
      // until every kept event is handled
    }
  }
  const ticketOf = async (id: string) =>
    (await harness.app.inject({ url: `/v1/tickets/${id}`, headers: acme.headers })).json().data;
  const callsOf = (method: string) => slack.calls.filter((call) => call.method === method);

  it('a question becomes a ticket, is taken with 👀, answered in its thread from Switchboard and from Slack, followed up and closed from the triage post', async () => {
    // The partner asks in the shared channel: a ticket of Support, with the reason it is one.
    slack.script('users.info', {
      ok: true,
      user: { id: CUSTOMER, profile: { email: 'dana@partner.example', real_name: 'Dana Scully' } },
    });
    slack.script('chat.getPermalink', { ok: true, permalink: 'https://acme.slack.com/archives/C0PARTNER/p1' });
    const question = 'Our CSV export is broken since this morning, can you help?';
    await sendEvent({
      type: 'message',
      channel: CUSTOMER_CHANNEL,
      user: CUSTOMER,
      user_team: PARTNER_TEAM,
      text: question,
      ts: QUESTION_TS,
      event_ts: QUESTION_TS,
    });
    const thread = await harness.db
      .selectFrom('slack_ticket_threads')
      .selectAll()
      .where('organization_id', '=', acme.organizationId)
      .executeTakeFirstOrThrow();
    expect(thread).toMatchObject({ channel_id: CUSTOMER_CHANNEL, thread_ts: QUESTION_TS });
    const ticketId = thread.ticket_id;
    expect(await ticketOf(ticketId)).toMatchObject({
      source: 'slack',
      teamId: support.teamId,
      requestorEmail: 'dana@partner.example',
    });

    // Posted for triage with its buttons.
    slack.script('chat.postMessage', { ok: true, ts: TRIAGE_TS });
    await triage.runOnce();
    const [triagePost] = callsOf('chat.postMessage');
    expect(triagePost?.params.channel).toBe(TRIAGE_CHANNEL);
    expect(String(triagePost?.params.blocks)).toContain(TRIAGE_ACTIONS.assignToMe);

    // Bo takes it with 👀 on the triage post: assigned to Bo, and the post says so.
    slack.script('users.info', slackPerson(AGENT, TEAM, 'bo@acme.test'));
    await sendEvent({
      type: 'reaction_added',
      user: AGENT,
      reaction: 'eyes',
      item: { type: 'message', channel: TRIAGE_CHANNEL, ts: TRIAGE_TS },
      event_ts: `${NOW_SECONDS}.000200`,
    });
    expect(await ticketOf(ticketId)).toMatchObject({ assignedAgentId: bo.userId });
    slack.script('chat.update', ...Array.from({ length: 4 }, () => ({ ok: true as const })));
    await triage.runOnce();
    const assigned = callsOf('chat.update').at(-1);
    expect(assigned?.params).toMatchObject({ channel: TRIAGE_CHANNEL, ts: TRIAGE_TS });
    expect(String(assigned?.params.blocks)).toContain('Bo Agent');

    // Bo answers from Switchboard: the public reply reaches the customer's thread under Bo's name; the note never does.
    const reply = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/comment`,
      headers: bo.headers,
      payload: { content: 'Found it: the date filter. A fix ships today.', commentVisibility: 'public' },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const note = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/comment`,
      headers: bo.headers,
      payload: { content: 'Internal: the March import job.', commentVisibility: 'private' },
    });
    expect(note.statusCode, note.body).toBe(201);
    slack.script('chat.postMessage', { ok: true, ts: `${NOW_SECONDS}.000300` });
    await posts.runOnce();
    const threadPosts = callsOf('chat.postMessage').filter((call) => call.params.channel === CUSTOMER_CHANNEL);
    expect(threadPosts.map((call) => [call.params.thread_ts, call.params.username, call.params.text])).toEqual([
      [QUESTION_TS, 'Bo Agent', 'Found it: the date filter. A fix ships today.'],
    ]);

    // The customer follows up in the thread: a customer comment on the ticket.
    slack.script('users.info', {
      ok: true,
      user: { id: CUSTOMER, profile: { email: 'dana@partner.example', real_name: 'Dana Scully' } },
    });
    const followUp = `${NOW_SECONDS}.000400`;
    await sendEvent({
      type: 'message',
      channel: CUSTOMER_CHANNEL,
      user: CUSTOMER,
      user_team: PARTNER_TEAM,
      text: 'Thanks, the March file works now.',
      ts: followUp,
      thread_ts: QUESTION_TS,
      event_ts: followUp,
    });
    const comments = (await harness.app.inject({ url: `/v1/tickets/${ticketId}/comments`, headers: acme.headers })).json()
      .data as { content: string }[];
    expect(comments.map((comment) => comment.content)).toContain('Thanks, the March file works now.');

    // Bo answers in the thread from Slack itself: Bo's public comment on the ticket, not posted back.
    slack.script('users.info', slackPerson(AGENT, TEAM, 'bo@acme.test'));
    const inSlack = `${NOW_SECONDS}.000500`;
    const postsBefore = callsOf('chat.postMessage').length;
    await sendEvent({
      type: 'message',
      channel: CUSTOMER_CHANNEL,
      user: AGENT,
      user_team: TEAM,
      text: 'Great, closing this then.',
      ts: inSlack,
      thread_ts: QUESTION_TS,
      event_ts: inSlack,
    });
    const afterSlackReply = (await harness.app.inject({ url: `/v1/tickets/${ticketId}/comments`, headers: acme.headers })).json()
      .data as {
      content: string;
      authorId: string | null;
      commentVisibility: string;
    }[];
    expect(afterSlackReply.find((comment) => comment.content === 'Great, closing this then.')).toMatchObject({
      authorId: bo.userId,
      commentVisibility: 'public',
    });
    await posts.runOnce();
    expect(callsOf('chat.postMessage')).toHaveLength(postsBefore);

    // Bo closes it with the triage post's button: closed as Bo, and the post says so.
    slack.script('users.info', slackPerson(AGENT, TEAM, 'bo@acme.test'));
    const click = slackInteraction(
      TEST_SLACK_SIGNING_SECRET,
      {
        type: 'block_actions',
        trigger_id: 'trip.close.1',
        team: { id: TEAM },
        user: { id: AGENT },
        channel: { id: TRIAGE_CHANNEL },
        message: { ts: TRIAGE_TS },
        actions: [{ action_id: TRIAGE_ACTIONS.close, value: ticketId }],
      },
      { timestamp: NOW_SECONDS },
    );
    const answer = await harness.app.inject({
      method: 'POST',
      url: '/v1/integrations/slack/interactions',
      headers: click.headers,
      payload: click.payload,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    while ((await inbound.runOnce()) > 0) {
      // the kept click
    }
    expect((await ticketOf(ticketId)).isClosed).toBe(true);
    await triage.runOnce();
    expect(String(callsOf('chat.update').at(-1)?.params.blocks)).toContain('Closed');

    // Nothing left behind: every kept event handled, every post sent.
    const unfinished = await harness.db.selectFrom('slack_events').select('event_id').where('status', '!=', 'done').execute();
    expect(unfinished).toEqual([]);
  });
});
