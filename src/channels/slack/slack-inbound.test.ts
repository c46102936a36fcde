import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { inboundDepsOf, inboundEnv } from '../../../test/inbound.js';
import { startModelServer, type TestModelServer } from '../../../test/model-server.js';
import { slackEnv, TEST_SLACK_SIGNING_SECRET } from '../../../test/slack-app.js';
import { slackHeaders, startSlackServer, type TestSlackServer } from '../../../test/slack-server.js';
import { depsOfApp } from '../../app.js';
import { createSlackWorker, type SlackWorker } from './slack.worker.js';
import { saveSlackChannel } from './slack-channel.repository.js';
import type { SlackDetectionMode } from './slack-channel.table.js';

const SIGNING_SECRET = TEST_SLACK_SIGNING_SECRET;
const NOW_SECONDS = Math.floor(Date.parse(TEST_NOW) / 1000);
const TEAM = 'T0ACME';
const PARTNER_TEAM = 'T0PARTNER';
const TOKEN = `xoxb-${TEAM}-token`;
const CUSTOMER = 'U0DANA';

/** A message's `ts`, `seconds` before the test's now. */
const tsAgo = (seconds: number, n = 0) => `${NOW_SECONDS - seconds}.${String(100 + n).padStart(6, '0')}`;

const dana = { ok: true as const, user: { id: CUSTOMER, profile: { email: 'dana@partner.example', real_name: 'Dana Scully' } } };

describe.each(DIALECTS)('Slack inbound on %s', (dialect) => {
  let harness: TestApp;
  let slack: TestSlackServer;
  let model: TestModelServer;
  let worker: SlackWorker;
  let acme: TestOrganization;
  let team: TestTeam;
  let cleanup: () => void;
  let eventSeq = 0;
  let channelSeq = 0;

  beforeAll(async () => {
    slack = await startSlackServer();
    model = await startModelServer();
    const env = inboundEnv({
      ...slackEnv(slack),
      LLM_BASE_URL: model.baseUrl,
      LLM_MODEL: 'classifier',
    });
    cleanup = env.cleanup;
    harness = await buildTestApp(dialect, { env: env.env });
    acme = await makeOrganization(harness, { name: 'Acme' });
    team = await makeTeam(harness, acme, { name: 'Support' });
    const authorize = await harness.app.inject({ url: '/v1/integrations/slack/install', headers: acme.headers });
    const state = new URL(String(authorize.headers.location)).searchParams.get('state') ?? '';
    slack.script('oauth.v2.access', {
      ok: true,
      access_token: TOKEN,
      token_type: 'bot',
      scope: 'channels:history,chat:write',
      bot_user_id: 'U0BOT',
      app_id: 'A0SWITCH',
      team: { id: TEAM, name: 'Acme' },
    });
    const back = await harness.app.inject({ url: `/v1/integrations/slack/oauth/callback?code=c&state=${state}` });
    expect(back.headers.location).toContain('slack=installed');
    worker = createSlackWorker(inboundDepsOf(harness), { retryBaseMs: 1_000, maxAttempts: 2 });
  });
  beforeEach(() => {
    harness.clock.set(TEST_NOW);
    slack.calls.length = 0;
  });
  afterAll(async () => {
    await worker?.stop();
    await harness?.close();
    await slack?.close();
    await model?.close();
    cleanup?.();
  });

  /** A fresh customer channel (each test its own, so groups and order never cross tests). */
  async function customerChannel(mode: SlackDetectionMode, kind: 'customer' | 'ignored' | 'triage' = 'customer') {
    channelSeq += 1;
    const channelId = `C0CH${channelSeq}`;
    const at = TEST_NOW;
    await saveSlackChannel(
      harness.db,
      {
        id: harness.ids.ulid(),
        organization_id: acme.organizationId,
        channel_id: channelId,
        name: `partner-${channelSeq}`,
        kind,
        team_id: team.teamId,
        detection_mode: mode,
        created_at: at,
        updated_at: at,
      },
      { kind },
    );
    return channelId;
  }

  /** Slack's envelope of an event, timed as its message (events of a channel are handled in that order). */
  function envelope(event: Record<string, unknown>, eventId = `Ev${++eventSeq}`) {
    const eventTime = typeof event.ts === 'string' ? Math.floor(Number(event.ts)) : NOW_SECONDS;
    return { type: 'event_callback', team_id: TEAM, api_app_id: 'A0SWITCH', event_id: eventId, event_time: eventTime, event };
  }
  const message = (channel: string, text: string, ts: string, more: Record<string, unknown> = {}, eventId?: string) =>
    envelope({ type: 'message', channel, user: CUSTOMER, user_team: PARTNER_TEAM, text, ts, event_ts: ts, ...more }, eventId);

  function postEvent(body: object, options: { retryNum?: number; app?: TestApp['app'] } = {}) {
    const text = JSON.stringify(body);
    return (options.app ?? harness.app).inject({
      method: 'POST',
      url: '/v1/integrations/slack/events',
      headers: slackHeaders(SIGNING_SECRET, text, { timestamp: NOW_SECONDS, retryNum: options.retryNum }),
      payload: text,
    });
  }
  async function deliver(...bodies: object[]) {
    for (const body of bodies) {
      expect((await postEvent(body)).statusCode).toBe(200);
    }
    while ((await worker.runOnce()) > 0) {
      // until nothing is due
    }
  }
  const requestsOf = (channelId: string) =>
    harness.db.selectFrom('slack_requests').selectAll().where('channel_id', '=', channelId).orderBy('first_ts').execute();
  const ticket = async (id: string) =>
    (await harness.app.inject({ url: `/v1/tickets/${id}`, headers: acme.headers })).json().data;
  const comments = async (id: string) =>
    (await harness.app.inject({ url: `/v1/tickets/${id}/comments`, headers: acme.headers })).json().data as {
      id: string;
      content: string;
      commentVisibility?: string;
      isEdited: boolean;
      customerContactEmail: string | null;
      attachments: string[];
    }[];

  it('makes a ticket of a question in rules mode: contact, source, metadata, thread, link, and the reason on the ticket', async () => {
    const channelId = await customerChannel('rules');
    const ts = tsAgo(10);
    slack.script('users.info', dana);
    slack.script('chat.getPermalink', { ok: true, permalink: `https://acme.slack.com/archives/${channelId}/p1` });
    await deliver(message(channelId, 'Our exports are broken since this morning, can you check?', ts));
    const [decision] = await requestsOf(channelId);
    expect(decision).toMatchObject({
      mode: 'rules',
      is_request: 1,
      reason: "question mark and keyword 'broken'",
      slack_user_id: CUSTOMER,
      first_ts: ts,
    });
    const made = await ticket(decision?.ticket_id ?? '');
    expect(made).toMatchObject({
      title: 'Our exports are broken since this morning, can you check?',
      source: 'slack',
      teamId: team.teamId,
      requestorEmail: 'dana@partner.example',
      metadata: { slack: { channelId, threadTs: ts, permalink: `https://acme.slack.com/archives/${channelId}/p1` } },
    });
    const thread = await harness.db.selectFrom('slack_ticket_threads').selectAll().where('ticket_id', '=', made.id).execute();
    expect(thread).toMatchObject([{ channel_id: channelId, thread_ts: ts }]);
    const links = await harness.db.selectFrom('slack_message_links').selectAll().where('ticket_id', '=', made.id).execute();
    expect(links).toMatchObject([{ message_ts: ts, direction: 'inbound', comment_id: null }]);
    expect((await comments(made.id)).map((each) => each.content)).toEqual([
      `Detected as a request in #partner-${channelSeq}: question mark and keyword 'broken'`,
    ]);
    expect(slack.calls.map((call) => [call.method, call.token])).toEqual([
      ['users.info', TOKEN],
      ['chat.getPermalink', TOKEN],
    ]);
    const events = await harness.db.selectFrom('slack_events').selectAll().where('channel_id', '=', channelId).execute();
    expect(events).toMatchObject([{ status: 'done', attempts: 1, last_error: null }]);
  });

  it('stores a "thanks!" as not a request in rules mode, with why, and makes no ticket', async () => {
    const channelId = await customerChannel('rules');
    slack.script('users.info', dana);
    await deliver(message(channelId, 'thanks! 👍', tsAgo(10)));
    expect(await requestsOf(channelId)).toMatchObject([
      { mode: 'rules', is_request: 0, reason: "excluded: 'thanks'", ticket_id: null },
    ]);
    slack.script('users.info', dana);
    await deliver(message(channelId, 'lovely weather today', tsAgo(-500)));
    expect((await requestsOf(channelId)).find((each) => each.text === 'lovely weather today')).toMatchObject({
      is_request: 0,
      reason: 'no keyword, question or mention of the bot',
    });
    expect(slack.calls.map((call) => call.method)).toEqual(['users.info', 'users.info']);
  });

  it("reads a channel's own rules, a mention of the bot, and a question despite an excluded word", async () => {
    const channelId = await customerChannel('rules');
    await harness.db
      .updateTable('slack_channels')
      .set({ detection_rules: JSON.stringify({ keywords: ['invoice'], questions: false }) })
      .where('channel_id', '=', channelId)
      .execute();
    slack.script('users.info', dana, dana, dana);
    slack.script('chat.getPermalink', { ok: true, permalink: 'https://acme.slack.com/p' });
    await deliver(
      message(channelId, 'why is this broken?', tsAgo(600)),
      message(channelId, 'the invoice total looks off', tsAgo(300)),
      message(channelId, 'ok <@U0BOT> hi', tsAgo(100)),
    );
    expect((await requestsOf(channelId)).map((each) => [each.is_request, each.reason])).toEqual([
      [0, 'no keyword, question or mention of the bot'],
      [1, "keyword 'invoice'"],
      [1, 'mention of the bot'],
    ]);
    const defaults = await customerChannel('rules');
    slack.script('users.info', dana);
    slack.script('chat.getPermalink', { ok: true, permalink: 'https://acme.slack.com/p' });
    await deliver(message(defaults, 'is it ok to upgrade today?', tsAgo(10)));
    expect(await requestsOf(defaults)).toMatchObject([{ is_request: 1, reason: 'question mark' }]);
  });

  it("groups a person's messages within the window into one request, decided again on the joined text; later ones comment on its ticket", async () => {
    const channelId = await customerChannel('rules');
    slack.script('users.info', dana, dana, dana, dana);
    slack.script('chat.getPermalink', { ok: true, permalink: 'https://acme.slack.com/p' });
    const url = slack.serveFile('F0DASH/dash.png', Buffer.from('dashboard'), TOKEN);
    const shot = { id: 'F0DASH', name: 'dash.png', mimetype: 'image/png', size: 9, url_private: url };
    await deliver(message(channelId, 'Hello team', tsAgo(100), { subtype: 'file_share', files: [shot] }));
    expect(await requestsOf(channelId)).toMatchObject([{ is_request: 0, ticket_id: null }]);
    // Not a request yet: its file waits in Slack. Once the group is one, the earlier message's file comes with it.
    expect(slack.calls.filter((call) => call.method.startsWith('files/'))).toEqual([]);
    slack.script('conversations.history', {
      ok: true,
      messages: [
        { type: 'message', user: CUSTOMER, text: 'the dashboard is down for all of us', ts: tsAgo(60) },
        { type: 'message', user: 'U0SOMEONE', text: 'me too', ts: tsAgo(80) },
        { type: 'message', user: CUSTOMER, text: 'Hello team', ts: tsAgo(100), files: [shot] },
      ],
    });
    await deliver(message(channelId, 'the dashboard is down for all of us', tsAgo(60)));
    const [group] = await requestsOf(channelId);
    expect(group).toMatchObject({
      first_ts: tsAgo(100),
      last_ts: tsAgo(60),
      text: 'Hello team\nthe dashboard is down for all of us',
      is_request: 1,
      reason: "keyword 'down'",
    });
    const made = await ticket(group?.ticket_id ?? '');
    expect(made).toMatchObject({ title: 'Hello team', description: 'Hello team\nthe dashboard is down for all of us' });
    const history = slack.calls.find((call) => call.method === 'conversations.history');
    expect(history?.params).toMatchObject({ channel: channelId, oldest: tsAgo(100), latest: tsAgo(60) });
    expect((await comments(made.id)).flatMap((each) => each.attachments)).toHaveLength(1);
    const links = await harness.db
      .selectFrom('slack_message_links')
      .select('message_ts')
      .where('ticket_id', '=', made.id)
      .orderBy('message_ts')
      .execute();
    expect(links.map((each) => each.message_ts)).toEqual([tsAgo(100), tsAgo(60)]);
    await deliver(message(channelId, 'since 9am', tsAgo(30)));
    expect(await requestsOf(channelId)).toHaveLength(1);
    const thread = await comments(made.id);
    expect(thread.map((each) => each.content)).toContain('since 9am');
    expect(thread.find((each) => each.content === 'since 9am')?.customerContactEmail).toBe('dana@partner.example');
    // Past the window (120 s after the last one): a new group.
    await deliver(message(channelId, 'is the API rate limited?', `${NOW_SECONDS + 200}.000100`));
    expect(await requestsOf(channelId)).toHaveLength(2);
  });

  it("handles one channel's messages of the same second in their order, whatever their event ids", async () => {
    const channelId = await customerChannel('rules');
    slack.script('users.info', dana, dana);
    const second = NOW_SECONDS - 50;
    await deliver(
      message(channelId, 'second part', `${second}.900000`, {}, `EvA${channelSeq}`),
      message(channelId, 'first part', `${second}.100000`, {}, `EvZ${channelSeq}`),
    );
    expect(await requestsOf(channelId)).toMatchObject([{ text: 'first part\nsecond part', first_ts: `${second}.100000` }]);
  });

  it('makes a ticket of every candidate in all mode, and asks the model in ai mode, the rules deciding when it fails', async () => {
    const all = await customerChannel('all');
    slack.script('users.info', dana);
    await deliver(message(all, 'good morning', tsAgo(10)));
    expect(await requestsOf(all)).toMatchObject([{ mode: 'all', is_request: 1 }]);
    expect((await requestsOf(all))[0]?.ticket_id).toBeTruthy();

    const ai = await customerChannel('ai');
    model.script({ text: '{"isRequest": true, "reason": "asks how to change the billing address"}' });
    slack.script('users.info', dana);
    await deliver(message(ai, 'where do we change the billing address', tsAgo(20)));
    const [byModel] = await requestsOf(ai);
    expect(byModel).toMatchObject({ mode: 'ai', is_request: 1, reason: 'model: asks how to change the billing address' });
    const note = (await comments(byModel?.ticket_id ?? ''))[0]?.content;
    expect(note).toContain('model: asks how to change the billing address');
    expect(model.requests.at(-1)?.body.messages.at(-1)).toMatchObject({ content: 'where do we change the billing address' });

    model.script({ kind: 'error', status: 500, message: 'overloaded' }, { kind: 'error', status: 500, message: 'overloaded' });
    slack.script('users.info', dana);
    await deliver(message(ai, 'thank you', tsAgo(-300)));
    const fallback = (await requestsOf(ai))[1];
    expect(fallback).toMatchObject({ mode: 'ai', is_request: 0 });
    expect(fallback?.reason).toMatch(/^rules \(The model provider failed \(HTTP 500\).*\): excluded: 'thank you'$/);
  });

  it('makes a ticket of a message given 🎫, whatever the mode, once', async () => {
    const channelId = await customerChannel('rules');
    const ts = tsAgo(40);
    slack.script('users.info', dana);
    await deliver(message(channelId, 'ok', ts));
    expect(await requestsOf(channelId)).toMatchObject([{ is_request: 0, ticket_id: null }]);
    slack.script('conversations.history', {
      ok: true,
      messages: [{ type: 'message', user: CUSTOMER, text: 'ok', ts }],
    });
    slack.script('users.info', dana);
    const reaction = (eventId?: string) =>
      envelope(
        { type: 'reaction_added', user: 'U0AGENT', reaction: 'ticket', item: { type: 'message', channel: channelId, ts } },
        eventId,
      );
    await deliver(reaction());
    const [decision] = await requestsOf(channelId);
    // The detector's decision stays as it was (for the report); the ticket is linked to it.
    expect(decision).toMatchObject({ mode: 'rules', is_request: 0 });
    const made = await ticket(decision?.ticket_id ?? '');
    expect(made).toMatchObject({ source: 'slack', title: 'ok' });
    expect((await comments(made.id))[0]?.content).toContain('by a 🎫 reaction of <@U0AGENT>');
    slack.calls.length = 0;
    await deliver(reaction());
    expect(slack.calls).toEqual([]);
    expect(
      await harness.db.selectFrom('slack_ticket_threads').select('ticket_id').where('channel_id', '=', channelId).execute(),
    ).toHaveLength(1);
  });

  it('syncs thread replies in as customer comments, with files, and follows their edits and deletions', async () => {
    const channelId = await customerChannel('all');
    const root = tsAgo(200);
    slack.script('users.info', dana, dana, dana);
    await deliver(message(channelId, 'Printing fails', root));
    const [decision] = await requestsOf(channelId);
    const ticketId = decision?.ticket_id ?? '';
    const reply = tsAgo(100);
    await deliver(message(channelId, 'here is the log', reply, { thread_ts: root }));
    let thread = await comments(ticketId);
    const comment = thread.find((each) => each.content === 'here is the log');
    expect(comment).toMatchObject({ customerContactEmail: 'dana@partner.example', attachments: [] });
    const url = slack.serveFile('F0LOG/log.txt', Buffer.from('line 1\nline 2\n'), TOKEN);
    const bigUrl = slack.serveFile('F0BIG/big.bin', Buffer.alloc(10), TOKEN);
    await deliver(
      message(channelId, 'and the file', tsAgo(90), {
        subtype: 'file_share',
        thread_ts: root,
        files: [
          { id: 'F0LOG', name: 'log.txt', mimetype: 'text/plain', size: 14, url_private: url },
          { id: 'F0BIG', name: 'huge.iso', mimetype: 'application/octet-stream', size: 10 ** 12, url_private: bigUrl },
        ],
      }),
    );
    thread = await comments(ticketId);
    const withFile = thread.find((each) => each.content.startsWith('and the file'));
    expect(withFile?.content).toContain('(file skipped: huge.iso: over the 25 MB attachment limit)');
    expect(withFile?.attachments).toHaveLength(1);
    const download = await harness.app.inject({ url: `/v1/attachments/${withFile?.attachments[0]}`, headers: acme.headers });
    expect(download.body).toBe('line 1\nline 2\n');
    expect(slack.calls.filter((call) => call.method.startsWith('files/')).map((call) => call.method)).toEqual([
      'files/F0LOG/log.txt',
    ]);

    await deliver(
      envelope({
        type: 'message',
        subtype: 'message_changed',
        channel: channelId,
        message: { type: 'message', user: CUSTOMER, text: 'here is the full log', ts: reply, thread_ts: root },
        previous_message: { type: 'message', user: CUSTOMER, text: 'here is the log', ts: reply },
      }),
    );
    thread = await comments(ticketId);
    expect(thread.find((each) => each.id === comment?.id)).toMatchObject({ content: 'here is the full log', isEdited: true });
    await deliver(
      envelope({
        type: 'message',
        subtype: 'message_deleted',
        channel: channelId,
        deleted_ts: reply,
        previous_message: { ts: reply },
      }),
    );
    expect((await comments(ticketId)).map((each) => each.id)).not.toContain(comment?.id);

    // The request's own message edited: the new wording reaches the ticket as the customer's comment.
    slack.script('users.info', dana);
    await deliver(
      envelope({
        type: 'message',
        subtype: 'message_changed',
        channel: channelId,
        message: { type: 'message', user: CUSTOMER, text: 'Printing fails on every page', ts: root },
        previous_message: { type: 'message', user: CUSTOMER, text: 'Printing fails', ts: root },
      }),
    );
    expect(
      (await comments(ticketId)).find((each) => each.content === 'Edited in Slack: Printing fails on every page'),
    ).toMatchObject({
      customerContactEmail: 'dana@partner.example',
    });
  });

  it("puts the files of a request's message on its ticket, and refuses to send the token to a host that is not Slack's", async () => {
    const channelId = await customerChannel('all');
    const url = slack.serveFile('F0SHOT/shot.png', Buffer.from('png bytes'), TOKEN);
    slack.script('users.info', dana);
    await deliver(
      message(channelId, 'see the screenshot', tsAgo(10), {
        subtype: 'file_share',
        files: [
          { id: 'F0SHOT', name: 'shot.png', mimetype: 'image/png', size: 9, url_private: url },
          { id: 'F0EVIL', name: 'evil.txt', mimetype: 'text/plain', size: 4, url_private: 'https://attacker.example/steal' },
        ],
      }),
    );
    const [decision] = await requestsOf(channelId);
    const files = (await comments(decision?.ticket_id ?? '')).find((each) => each.attachments.length > 0);
    expect(files?.attachments).toHaveLength(1);
    expect(files?.content).toContain('(file skipped: evil.txt: not served by Slack)');
    const metadata = await harness.app.inject({
      url: `/v1/attachments/${files?.attachments[0]}/metadata`,
      headers: acme.headers,
    });
    expect(metadata.json().data).toMatchObject({ fileName: 'shot.png', contentType: 'image/png', size: 9 });
  });

  it("keeps no message of an ignored channel, and leaves the bot's, joins and the organization's own people alone", async () => {
    const ignored = await customerChannel('all', 'ignored');
    expect((await postEvent(message(ignored, 'help!', tsAgo(5)))).json()).toEqual({ ok: true });
    expect((await postEvent(message('C0UNKNOWN', 'help!', tsAgo(5)))).statusCode).toBe(200);
    const kept = await harness.db
      .selectFrom('slack_events')
      .select('event_id')
      .where('channel_id', 'in', [ignored, 'C0UNKNOWN'])
      .execute();
    expect(kept).toEqual([]);

    const channelId = await customerChannel('all');
    await makeUser(harness, acme.organizationId, { email: 'mulder@acme.example' });
    slack.script('users.info', { ok: true, user: { id: 'U0MULDER', profile: { email: 'mulder@acme.example' } } });
    await deliver(
      message(channelId, 'from the bot', tsAgo(9), { user: 'U0BOT', bot_id: 'B0BOT' }),
      message(channelId, 'joined', tsAgo(8), { subtype: 'channel_join' }),
      message(channelId, 'our own colleague', tsAgo(7), { user: 'U0COLLEAGUE', user_team: TEAM }),
      message(channelId, 'an agent by email', tsAgo(6), { user: 'U0MULDER' }),
    );
    expect(await requestsOf(channelId)).toEqual([]);
    // Only the partner workspace's person is looked up: the own workspace's colleague is known by their team.
    expect(slack.calls.map((call) => [call.method, call.params.user])).toEqual([['users.info', 'U0MULDER']]);
    const events = await harness.db.selectFrom('slack_events').select('status').where('channel_id', '=', channelId).execute();
    expect(events.map((each) => each.status)).toEqual(['done', 'done', 'done', 'done']);
  });

  it('files a message once Slack answers users.info after ratelimited; retries a failed event with backoff, then fails it', async () => {
    const channelId = await customerChannel('all');
    slack.script('users.info', { ratelimited: true, retryAfterSeconds: 1 }, dana);
    await deliver(message(channelId, 'the export is slow', tsAgo(10)));
    expect((await requestsOf(channelId))[0]?.ticket_id).toBeTruthy();

    const failing = await customerChannel('all');
    slack.script('users.info', { ok: false, error: 'user_not_found' });
    await deliver(message(failing, 'hello?', tsAgo(10)));
    const [event] = await harness.db.selectFrom('slack_events').selectAll().where('channel_id', '=', failing).execute();
    expect(event).toMatchObject({ status: 'pending', attempts: 1 });
    expect(event?.last_error).toContain('user_not_found');
    expect(event?.next_attempt_at).toBe(new Date(Date.parse(TEST_NOW) + 1_000).toISOString());
    harness.clock.advance(1_000);
    slack.script('users.info', dana);
    await deliver();
    expect(await requestsOf(failing)).toHaveLength(1);

    // Refused on every attempt: failed for good, with why; the channel's next event goes on.
    const refused = await customerChannel('all');
    slack.script('users.info', { ok: false, error: 'user_not_found' }, { ok: false, error: 'user_not_found' }, dana);
    await deliver(message(refused, 'anyone?', tsAgo(10)), message(refused, 'second', tsAgo(5, 1)));
    harness.clock.advance(1_000);
    await deliver();
    const events = await harness.db
      .selectFrom('slack_events')
      .selectAll()
      .where('channel_id', '=', refused)
      .orderBy('event_time')
      .orderBy('event_id')
      .execute();
    expect(events.map((each) => [each.status, each.attempts])).toEqual([
      ['failed', 2],
      ['done', 1],
    ]);
    expect(events[0]?.last_error).toContain('user_not_found');
    expect((await requestsOf(refused)).map((each) => each.text)).toEqual(['second']);
  });

  it('makes one ticket of an event and its retry received by two processes at once, each with its worker', async () => {
    const channelId = await customerChannel('all');
    const processes = await serverProcesses(harness);
    const workers = processes.apps.map((app) => createSlackWorker(inboundDepsOf(harness, depsOfApp(app).db)));
    try {
      slack.script('users.info', dana, dana);
      slack.script('chat.getPermalink', { ok: true, permalink: 'https://acme.slack.com/p' });
      const event = message(channelId, 'Invoices are missing', tsAgo(10));
      const answers = await Promise.all(
        processes.apps.flatMap((app) => [postEvent(event, { app }), postEvent(event, { app, retryNum: 1 })]),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      await Promise.all(workers.map((each) => each.runOnce()));
      await Promise.all(workers.map((each) => each.runOnce()));
      const [decision] = await requestsOf(channelId);
      expect(await requestsOf(channelId)).toHaveLength(1);
      const threads = await harness.db
        .selectFrom('slack_ticket_threads')
        .select('ticket_id')
        .where('channel_id', '=', channelId)
        .execute();
      expect(threads).toEqual([{ ticket_id: decision?.ticket_id }]);
      const events = await harness.db.selectFrom('slack_events').selectAll().where('channel_id', '=', channelId).execute();
      expect(events).toMatchObject([{ status: 'done', attempts: 1 }]);
      expect(slack.calls.filter((call) => call.method === 'users.info')).toHaveLength(1);
    } finally {
      await Promise.all(workers.map((each) => each.stop()));
      await processes.close();
    }
  });
});
