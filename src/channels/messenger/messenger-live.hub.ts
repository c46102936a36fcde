import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import { eventFrame, HEARTBEAT_FRAME, writeUnlessBehind } from '../../http/sse.js';
import type { Clock } from '../../lib/clock.js';
import type { EventSignal } from '../../platform/events/event.signal.js';
import { lastEventSeq, readEventBatch } from '../../platform/events/event-log.service.js';
import { reportChatVisitorsSeen, sweepGoneChatVisitors } from '../../platform/tickets/chat-ticket-visitor.service.js';
import type { EventType } from '../../shared/event-types.js';
import { findHandoffsOf } from './messenger-handoff.repository.js';
import { filesOf, type VisitorMessage, visitorMessageOfComment } from './messenger-handoff.service.js';

/**
 * The messenger's live streams (`GET …/conversations/{id}/events`): a person's replies reach every
 * open panel of the visitor within the event signal's interval, whichever process wrote them.
 *
 * As the console's stream hub does, one feed per organization with open panels reads the event log
 * after the last number it read whenever the signal says the log grew, and hands each comment of a
 * chat ticket to the panels of that ticket's conversation: a thousand panels cost one read per
 * batch plus their writes. A panel opened before its conversation was handed off waits in the feed
 * until the handoff exists. Nothing is replayed: a panel that (re)connects reads the messages first.
 */

export interface LiveConversation {
  organizationId: string;
  conversationId: string;
  /** Its chat ticket, when handed off already. */
  ticketId: string | null;
  /** The conversation as the visitor sees it now, read again when its ticket's status changes. */
  reload(): Promise<unknown>;
}

export interface MessengerLiveHub {
  readonly size: number;
  hasRoom(): boolean;
  /** Serves the conversation's live messages on a response whose event-stream headers are sent. */
  open(response: ServerResponse, conversation: LiveConversation): void;
  close(): Promise<void>;
}

export interface MessengerLiveHubDeps {
  db: Kysely<DB>;
  config: Pick<Config, 'EVENT_STREAM_HEARTBEAT_MS' | 'EVENT_STREAM_MAX_CONNECTIONS'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  signal: EventSignal;
  clock: Clock;
}

const WATCHED_TYPES: readonly EventType[] = ['comment.created', 'comment.updated', 'ticket.status_changed'];
const PAGE_SIZE = 200;
const MAX_BACKLOG_BYTES = 256 * 1024;
const HEARTBEAT = Buffer.from(HEARTBEAT_FRAME);
const RETRY_READ_MS = 1_000;

interface LiveStream {
  response: ServerResponse;
  conversation: LiveConversation;
  sequence: number;
}

interface Feed {
  organizationId: string;
  /** Streams of handed-off conversations, by their ticket. */
  byTicket: Map<string, Set<LiveStream>>;
  /** The ticket of each handed-off conversation with open streams. */
  ticketOf: Map<string, string>;
  /** Streams of conversations not handed off yet, by conversation. */
  waiting: Map<string, Set<LiveStream>>;
  /** The last number of the log read. */
  lastSeq: number;
  /** Resolves once `lastSeq` is where the log ended when the feed started. */
  started: Promise<void>;
  reading: boolean;
  again: boolean;
  retry: NodeJS.Timeout | undefined;
}

/** A chat ticket's comment (an event's data) as the visitor reads it, or null when it is not theirs to read. */
interface ShownComment {
  id: string;
  content: string;
  author: string | null;
  authorUserType: string | null;
  createdAt: string;
  /** The ids of its files; the message names them once they are looked up. */
  attachments: string[];
}

function shownComment(data: unknown): ShownComment | null {
  const comment = data as {
    id?: string;
    content?: string;
    author?: string | null;
    authorUserType?: string | null;
    createdAt?: string;
    commentVisibility?: string;
    commentType?: string;
    deletedAt?: string | null;
    attachments?: unknown;
  } | null;
  if (
    !comment?.id ||
    comment.commentVisibility !== 'public' ||
    comment.commentType === 'note' ||
    comment.deletedAt ||
    typeof comment.content !== 'string' ||
    typeof comment.createdAt !== 'string'
  ) {
    return null;
  }
  return {
    id: comment.id,
    content: comment.content,
    author: comment.author ?? null,
    authorUserType: comment.authorUserType ?? null,
    createdAt: comment.createdAt,
    attachments: Array.isArray(comment.attachments) ? comment.attachments.filter((id) => typeof id === 'string') : [],
  };
}

export function createMessengerLiveHub(deps: MessengerLiveHubDeps): MessengerLiveHub {
  return new LiveHub(deps);
}

function write(stream: LiveStream, event: string, data: unknown): void {
  stream.sequence += 1;
  if (!writeUnlessBehind(stream.response, eventFrame(String(stream.sequence), event, JSON.stringify(data)), MAX_BACKLOG_BYTES)) {
    stream.response.destroy();
  }
}

function add<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream): void {
  const set = map.get(key) ?? new Set<LiveStream>();
  set.add(stream);
  map.set(key, set);
}

function streamsOf(feed: Feed): LiveStream[] {
  return [...feed.byTicket.values(), ...feed.waiting.values()].flatMap((streams) => [...streams]);
}

async function sendConversation(streams: Iterable<LiveStream>): Promise<void> {
  for (const stream of streams) {
    if (!stream.response.destroyed) {
      write(stream, 'conversation', { conversation: await stream.conversation.reload() });
    }
  }
}

class LiveHub implements MessengerLiveHub {
  private readonly feeds = new Map<string, Feed>();
  private streams = 0;
  private unsubscribe: (() => void) | null = null;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly deps: MessengerLiveHubDeps) {}

  get size(): number {
    return this.streams;
  }

  hasRoom(): boolean {
    return this.streams < this.deps.config.EVENT_STREAM_MAX_CONNECTIONS;
  }

  open(response: ServerResponse, conversation: LiveConversation): void {
    this.start();
    const feed = this.feedOf(conversation.organizationId);
    const stream: LiveStream = { response, conversation, sequence: 0 };
    this.streams += 1;
    const ticketId = feed.ticketOf.get(conversation.conversationId) ?? conversation.ticketId;
    if (ticketId) {
      feed.ticketOf.set(conversation.conversationId, ticketId);
      add(feed.byTicket, ticketId, stream);
      this.reportSeen([ticketId]);
    } else {
      add(feed.waiting, conversation.conversationId, stream);
    }
    response.on('close', () => {
      this.streams -= 1;
      this.remove(feed, stream);
    });
    // Connected once the feed knows where the log ends: the panel reads the messages then, and
    // every later one comes through here.
    feed.started
      .then(() => {
        if (!response.destroyed) {
          response.write(': connected\n\n');
        }
        this.wake(feed);
      })
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error }, 'messenger live feed: reading where the log ends failed');
        response.destroy();
      });
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const feed of this.feeds.values()) {
      clearTimeout(feed.retry);
      for (const stream of streamsOf(feed)) {
        stream.response.end();
      }
    }
    this.feeds.clear();
  }

  private start(): void {
    // Eagerly: a reply written by this process reaches its panels at once, not at the next watch.
    this.unsubscribe ??= this.deps.signal.subscribe((organizationId) => this.onSignal(organizationId), { eagerly: true });
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => this.beat(), this.deps.config.EVENT_STREAM_HEARTBEAT_MS);
      this.heartbeat.unref();
    }
  }

  private feedOf(organizationId: string): Feed {
    const existing = this.feeds.get(organizationId);
    if (existing) {
      return existing;
    }
    const feed: Feed = {
      organizationId,
      byTicket: new Map(),
      ticketOf: new Map(),
      waiting: new Map(),
      lastSeq: 0,
      started: Promise.resolve(),
      reading: false,
      again: false,
      retry: undefined,
    };
    feed.started = lastEventSeq(this.deps.db, organizationId).then((seq) => {
      feed.lastSeq = seq;
    });
    this.feeds.set(organizationId, feed);
    return feed;
  }

  private remove(feed: Feed, stream: LiveStream): void {
    const { conversationId } = stream.conversation;
    const ticketId = feed.ticketOf.get(conversationId);
    const set = ticketId ? feed.byTicket.get(ticketId) : feed.waiting.get(conversationId);
    set?.delete(stream);
    if (set?.size === 0) {
      if (ticketId) {
        feed.byTicket.delete(ticketId);
        feed.ticketOf.delete(conversationId);
      } else {
        feed.waiting.delete(conversationId);
      }
    }
    if (feed.byTicket.size === 0 && feed.waiting.size === 0 && this.feeds.get(feed.organizationId) === feed) {
      clearTimeout(feed.retry);
      this.feeds.delete(feed.organizationId);
    }
  }

  private onSignal(organizationId: string | null): void {
    const feeds = organizationId === null ? [...this.feeds.values()] : [this.feeds.get(organizationId)];
    for (const feed of feeds) {
      if (feed) {
        this.wake(feed);
      }
    }
  }

  private wake(feed: Feed): void {
    if (feed.reading) {
      feed.again = true;
      return;
    }
    feed.reading = true;
    feed.again = false;
    clearTimeout(feed.retry);
    this.readFeed(feed)
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error, organizationId: feed.organizationId }, 'messenger live feed: reading the log failed');
        feed.retry = setTimeout(() => this.wake(feed), RETRY_READ_MS);
        feed.retry.unref();
      })
      .finally(() => {
        feed.reading = false;
        if (feed.again && this.feeds.get(feed.organizationId) === feed) {
          this.wake(feed);
        }
      });
  }

  /** Reads the log after the feed's number and hands each event to the streams of its ticket. */
  private async readFeed(feed: Feed): Promise<void> {
    await feed.started;
    for (;;) {
      const batch = await readEventBatch(this.deps.db, feed.organizationId, {
        types: WATCHED_TYPES,
        afterSeq: feed.lastSeq,
        limit: PAGE_SIZE,
      });
      await this.adoptHandoffs(feed);
      for (const row of batch.events) {
        const streams = row.ticket_id ? feed.byTicket.get(row.ticket_id) : undefined;
        if (!streams || streams.size === 0) {
          continue;
        }
        if (row.type === 'ticket.status_changed') {
          await sendConversation(streams);
          continue;
        }
        const message = await this.messageOf(feed.organizationId, shownComment(readJson(row.data)));
        for (const stream of message ? streams : []) {
          write(stream, 'message', { message });
        }
      }
      feed.lastSeq = batch.nextSeq;
      if (batch.events.length < PAGE_SIZE) {
        return;
      }
    }
  }

  /** The comment as the visitor's message, its files named (the event names them by id only). */
  private async messageOf(organizationId: string, comment: ShownComment | null): Promise<VisitorMessage | null> {
    if (!comment) {
      return null;
    }
    const files = comment.attachments.length > 0 ? await filesOf(this.deps, organizationId, [comment]) : new Map();
    return visitorMessageOfComment(comment, files);
  }

  /** Moves the waiting streams whose conversation now has a handoff to its ticket, and tells them. */
  private async adoptHandoffs(feed: Feed): Promise<void> {
    if (feed.waiting.size === 0) {
      return;
    }
    const handoffs = await findHandoffsOf(this.deps.db, [...feed.waiting.keys()]);
    for (const [conversationId, handoff] of handoffs) {
      const streams = feed.waiting.get(conversationId) ?? new Set();
      feed.waiting.delete(conversationId);
      feed.ticketOf.set(conversationId, handoff.ticket_id);
      for (const stream of streams) {
        add(feed.byTicket, handoff.ticket_id, stream);
      }
      await sendConversation(streams);
    }
  }

  /**
   * Heartbeats keep proxies from closing idle streams; each also reports the visitors with open
   * panels as seen, and sweeps those gone quiet (in every process with panels, each announced once).
   */
  private beat(): void {
    const ticketIds: string[] = [];
    for (const feed of this.feeds.values()) {
      for (const stream of streamsOf(feed)) {
        if (!writeUnlessBehind(stream.response, HEARTBEAT, MAX_BACKLOG_BYTES)) {
          stream.response.destroy();
        }
      }
      ticketIds.push(...feed.byTicket.keys());
    }
    this.reportSeen(ticketIds);
    sweepGoneChatVisitors(this.deps).catch((error: unknown) =>
      this.deps.log.warn({ err: error }, 'messenger live feed: sweeping gone visitors failed'),
    );
  }

  private reportSeen(ticketIds: readonly string[]): void {
    reportChatVisitorsSeen(this.deps, ticketIds).catch((error: unknown) =>
      this.deps.log.warn({ err: error }, 'messenger live feed: reporting visitors seen failed'),
    );
  }
}
