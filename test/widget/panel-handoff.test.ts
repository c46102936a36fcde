import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { expectedWaitText, handoffLines, nextOpeningText } from '../../widget/panel/handoff-text.js';
import {
  followConversation,
  reconnectDelay,
  type ShownMessage,
  shown,
  withLiveMessage,
  withMessagesReadBack,
  withStoredMessage,
} from '../../widget/panel/live-conversation.js';
import {
  type Conversation,
  type ConversationMessage,
  createMessengerClient,
  type Handoff,
  liveEventOf,
} from '../../widget/panel/messenger-client.js';

const NOW = new Date('2026-11-27T18:30:00Z'); // a Friday

function handoffOf(change: Partial<Handoff> = {}): Handoff {
  return {
    requestedAt: NOW.toISOString(),
    requestedBy: 'visitor',
    ticket: 'SUP-12',
    teamName: 'Billing',
    email: null,
    emailRequired: false,
    hours: { open: true, nextOpeningAt: null, expectedWaitMinutes: 7 },
    closed: false,
    ...change,
  };
}

function messageOf(id: string, author: ConversationMessage['author'], content = `text of ${id}`): ConversationMessage {
  return {
    id,
    author,
    authorName: author === 'agent' ? 'Dana' : null,
    content,
    citations: [],
    helpful: null,
    createdAt: NOW.toISOString(),
  };
}

const pending = (key: string, content: string): ShownMessage => ({ ...messageOf(key, 'visitor', content), key });
const keysAndIds = (messages: ShownMessage[]) => messages.map((message) => `${message.key}=${message.id}`);

describe('what the handoff notice says', () => {
  it('gives the expected wait inside hours, in minutes or hours, and "a few minutes" without a figure', () => {
    expect(expectedWaitText(7)).toBe('Usually replies in about 7 minutes.');
    expect(expectedWaitText(1)).toBe('Usually replies in about 1 minute.');
    expect(expectedWaitText(0.4)).toBe('Usually replies in about 1 minute.');
    expect(expectedWaitText(59.6)).toBe('Usually replies in about 1 hour.');
    expect(expectedWaitText(90)).toBe('Usually replies in about 2 hours.');
    expect(expectedWaitText(60)).toBe('Usually replies in about 1 hour.');
    for (const nothing of [null, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(expectedWaitText(nothing), String(nothing)).toBe('Usually replies in a few minutes.');
    }
  });

  it('formats the next opening in the visitor’s language: weekday and time this week, the date too beyond it', () => {
    expect(nextOpeningText('2026-11-30T09:00:00Z', 'en-US', NOW)).toMatch(/^Monday 9:00\sAM$/);
    expect(nextOpeningText('2026-11-30T09:00:00Z', 'de-DE', NOW)).toBe('Montag, 09:00');
    expect(nextOpeningText('2026-12-24T09:00:00Z', 'en-US', NOW)).toMatch(/^Thursday, December 24 at 9:00\sAM$/);
    expect(nextOpeningText(null, 'en-US', NOW)).toBeNull();
    expect(nextOpeningText('next week', 'en-US', NOW)).toBeNull();
  });

  it('inside hours: a person replies here, the wait, the reference', () => {
    expect(handoffLines(handoffOf(), 'en-US', NOW)).toEqual([
      'A person will reply here.',
      'Usually replies in about 7 minutes.',
      'Reference: SUP-12',
    ]);
  });

  it('outside hours: when the team is back (or only that it is away), and where replies go by email', () => {
    const away = handoffOf({
      email: 'ada@example.com',
      hours: { open: false, nextOpeningAt: '2026-11-30T09:00:00Z', expectedWaitMinutes: 7 },
    });
    const lines = handoffLines(away, 'en-US', NOW);
    expect(lines[0]).toBe('A person will reply here.');
    expect(lines[1]).toMatch(/^The Billing team is away now; they are back Monday 9:00\sAM\.$/);
    expect(lines.slice(2)).toEqual(['When you are away, replies also go to ada@example.com.', 'Reference: SUP-12']);
    expect(
      handoffLines(handoffOf({ hours: { open: false, nextOpeningAt: null, expectedWaitMinutes: null } }), 'en-US', NOW)[1],
    ).toBe('The Billing team is away now.');
  });

  it('a closed ticket: write to reopen it, with its reference, nothing about hours', () => {
    expect(handoffLines(handoffOf({ closed: true, email: 'ada@example.com' }), 'en-US', NOW)).toEqual([
      'This conversation was closed; write to reopen it.',
      'Reference: SUP-12',
    ]);
  });
});

describe('the live conversation’s messages', () => {
  it('appends a new message once, however often it comes', () => {
    const start = [shown(messageOf('a1', 'assistant'))];
    const once = withLiveMessage(start, messageOf('p1', 'agent'));
    expect(keysAndIds(once)).toEqual(['a1=a1', 'p1=p1']);
    const twice = withLiveMessage(once, { ...messageOf('p1', 'agent'), content: 'edited' });
    expect(keysAndIds(twice)).toEqual(['a1=a1', 'p1=p1']);
    expect(twice[1]?.content).toBe('edited');
  });

  it('puts the visitor’s own message from another tab before the ones still on their way, a person’s reply at the end', () => {
    const start = [shown(messageOf('a1', 'assistant')), pending('local-1', 'still sending')];
    expect(keysAndIds(withLiveMessage(start, messageOf('v9', 'visitor')))).toEqual(['a1=a1', 'v9=v9', 'local-1=local-1']);
    expect(keysAndIds(withLiveMessage(start, messageOf('p1', 'agent')))).toEqual(['a1=a1', 'local-1=local-1', 'p1=p1']);
  });

  it('keeps the key of the visitor’s message as stored, and drops the pending copy when the stream brought it first', () => {
    const start = [pending('local-1', 'hello')];
    expect(keysAndIds(withStoredMessage(start, 'local-1', messageOf('v1', 'visitor', 'hello')))).toEqual(['local-1=v1']);
    const streamedFirst = withLiveMessage(start, messageOf('v1', 'visitor', 'hello'));
    expect(keysAndIds(withStoredMessage(streamedFirst, 'local-1', messageOf('v1', 'visitor', 'hello')))).toEqual(['v1=v1']);
  });

  it('after a reconnection, shows the server’s messages, then the visitor’s still on their way', () => {
    const start = [shown(messageOf('a1', 'assistant')), pending('local-2', 'on its way')];
    const readBack = [messageOf('a1', 'assistant'), messageOf('p1', 'agent'), messageOf('p2', 'agent')];
    expect(keysAndIds(withMessagesReadBack(start, readBack))).toEqual(['a1=a1', 'p1=p1', 'p2=p2', 'local-2=local-2']);
  });

  it('waits longer after each failed reconnection, up to half a minute, a little at random', () => {
    expect(reconnectDelay(0, () => 0.5)).toBe(1000);
    expect(reconnectDelay(1, () => 0.5)).toBe(2000);
    expect(reconnectDelay(3, () => 0.5)).toBe(8000);
    expect(reconnectDelay(12, () => 0.5)).toBe(30_000);
    expect(reconnectDelay(0, () => 0)).toBe(800);
    expect(reconnectDelay(0, () => 0.999_999)).toBe(1200);
  });
});

describe('the live stream’s frames', () => {
  it('reads messages and conversations, and skips what it cannot use', () => {
    const message = messageOf('p1', 'agent');
    expect(liveEventOf('message', JSON.stringify({ message }))).toEqual({ event: 'message', message });
    const conversation = { id: 'c1', title: null, createdAt: '', lastActivityAt: '', handoff: handoffOf() };
    expect(liveEventOf('conversation', JSON.stringify({ conversation }))).toEqual({ event: 'conversation', conversation });
    expect(liveEventOf('message', '{not json')).toBeNull();
    expect(liveEventOf('message', JSON.stringify({ message: { id: 'x' } }))).toBeNull();
    expect(liveEventOf('conversation', JSON.stringify({ conversation: { title: 'no id' } }))).toBeNull();
    expect(liveEventOf('delta', JSON.stringify({ text: 'hi' }))).toBeNull();
  });
});

/** A loopback messenger API with the visitor call and a conversation's event stream, each connection served by `streams` in turn. */
async function startEventServer(streams: ((request: IncomingMessage, response: ServerResponse) => void)[]) {
  const seen: { path: string; authorization: string | undefined }[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
    if (request.method === 'POST' && request.url === '/api/visitors') {
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ visitorToken: 'visitor-1' }));
      return;
    }
    const serve = streams.shift();
    if (!serve) {
      response.writeHead(503).end();
      return;
    }
    serve(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = createMessengerClient({ apiBase: `http://127.0.0.1:${port}/api`, slug: 'acme', storage: null });
  return { client, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())), server };
}

const frame = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const openStream = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/event-stream' });

describe('following a handed-off conversation live (a loopback server)', () => {
  const servers: { close: () => Promise<void>; server: Server }[] = [];
  afterEach(async () => {
    for (const running of servers.splice(0)) {
      running.server.closeAllConnections();
      await running.close();
    }
  });

  it('hands on each event, reconnects after a drop with the visitor’s token, and reads back what was missed', async () => {
    const conversation: Conversation = { id: 'c1', title: null, createdAt: '', lastActivityAt: '', handoff: handoffOf() };
    const api = await startEventServer([
      (_request, response) => {
        openStream(response);
        response.write(`: heartbeat\n\n${frame('message', { message: messageOf('p1', 'agent') })}`);
        response.write('event: message\ndata: {broken\n\n');
        response.write(frame('conversation', { conversation: { ...conversation, handoff: handoffOf({ closed: true }) } }));
        // The connection drops (a proxy's timeout, a network change).
        setTimeout(() => response.destroy(), 20);
      },
      (_request, response) => {
        response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"unavailable","message":"x"}}');
      },
      (_request, response) => {
        openStream(response);
        response.write(frame('message', { message: messageOf('p2', 'agent') }));
      },
    ]);
    servers.push(api);
    const heard: string[] = [];
    const controller = new AbortController();
    const delays: number[] = [];
    const following = followConversation(
      api.client,
      'c1',
      {
        onMessage: (message) => heard.push(`message ${message.id}`),
        onConversation: (changed) => heard.push(`conversation closed=${changed.handoff?.closed}`),
        onReconnected: () => heard.push('reconnected'),
      },
      controller.signal,
      (attempt) => {
        delays.push(attempt);
        return 10;
      },
    );
    await expect.poll(() => heard).toEqual(['message p1', 'conversation closed=true', 'reconnected', 'message p2']);
    // Two pauses (after the drop, after the refusal), the second longer; none once it is open again.
    expect(delays).toEqual([0, 1]);
    controller.abort();
    await following;
    const streamCalls = api.seen.filter((call) => call.path === '/api/conversations/c1/events');
    expect(streamCalls).toHaveLength(3);
    expect(streamCalls.every((call) => call.authorization === 'Bearer visitor-1')).toBe(true);
  });

  it('stops for good when the conversation is not the visitor’s', async () => {
    const api = await startEventServer([
      (_request, response) => {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"No such"}}');
      },
    ]);
    servers.push(api);
    const heard: string[] = [];
    await followConversation(
      api.client,
      'c1',
      {
        onMessage: () => heard.push('message'),
        onConversation: () => heard.push('conversation'),
        onReconnected: () => heard.push('r'),
      },
      new AbortController().signal,
      () => 10,
    );
    expect(heard).toEqual([]);
    expect(api.seen.filter((call) => call.path.endsWith('/events'))).toHaveLength(1);
  });
});
