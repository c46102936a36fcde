import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { ApiKeyAuth } from '../../http/api-key-auth.js';
import { eventFrame, HEARTBEAT_FRAME, writeUnlessBehind } from '../../http/sse.js';
import type { Principal } from '../../lib/principal.js';
import type { EventType } from '../../shared/event-types.js';
import { eventId, toEvent } from './event.presenter.js';
import { type EventRow, listEvents } from './event.repository.js';
import type { EventSignal } from './event.signal.js';
import { type EventAudience, type EventViewer, eventViewerOf, isSeenByEveryone, loadEventAudience } from './event.visibility.js';

/**
 * The live event streams of one app. Per organization with open streams, one feed reads the log
 * after the last number it read whenever the signal says the log grew, loads who may see the batch
 * once (`loadEventAudience`), and hands it to every stream of the organization, each keeping what
 * its types and its viewer allow: a thousand streams cost the reads of one, plus their writes.
 *
 * A stream resuming from an earlier number (Last-Event-ID) joins its feed first, keeping what the
 * feed hands it aside, reads the log after its number page by page, then sends what it kept that
 * is newer than what it read: every event once, in order, none lost between the two.
 */

/** What a stream sends, as the service decided it from the request. */
export interface EventStreamPlan {
  organizationId: string;
  viewer: EventViewer;
  /** Only these types; null for every type. */
  types: ReadonlySet<EventType> | null;
  /** The stream sends the events after this number: first those already in the log, then live ones. */
  after: number;
  /** The last number of the log when the stream was asked for. */
  logEnd: number;
  /** The log no longer holds the events after the client's Last-Event-ID: it is told to reload first. */
  reset: boolean;
}

/** Who opened the stream, and with what: their API key or session is checked again at every heartbeat. */
export interface EventStreamCaller {
  userId: string;
  credential: { apiKey: string } | { sessionToken: string };
}

export interface EventStreamHub {
  /** Open streams. */
  readonly size: number;
  /** Whether one more stream fits under EVENT_STREAM_MAX_CONNECTIONS. */
  hasRoom(): boolean;
  /** Serves `plan` on a response whose event-stream headers are sent; it ends when the client leaves. */
  open(response: ServerResponse, plan: EventStreamPlan, caller: EventStreamCaller): void;
  /** Ends every stream (a client reconnects elsewhere, resuming where it was) and stops listening. */
  close(): Promise<void>;
}

export interface EventStreamHubDeps {
  db: Kysely<DB>;
  config: Pick<Config, 'EVENT_STREAM_HEARTBEAT_MS' | 'EVENT_STREAM_MAX_CONNECTIONS'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  auth: ApiKeyAuth;
  /** The principal of a session token still in force, without counting the check as the user's activity. */
  verifySession(token: string): Promise<Principal | null>;
  signal: EventSignal;
}

/** Events read per query, by feeds and by resuming streams. */
const PAGE_SIZE = 200;
/** A client with this much still unsent is too slow: it is dropped, and resumes with Last-Event-ID. */
const MAX_BACKLOG_BYTES = 1024 * 1024;
/** Live events kept aside for a stream still reading the log; past it, the stream is dropped. */
const MAX_KEPT_ASIDE = 10_000;
/** Written to every stream at once: one buffer, never copied. */
const HEARTBEAT = Buffer.from(HEARTBEAT_FRAME);
/** After a failed read, a feed tries again this much later (or at the next signal). */
const RETRY_READ_MS = 1_000;

interface Stream {
  response: ServerResponse;
  plan: EventStreamPlan;
  caller: EventStreamCaller;
  viewer: EventViewer;
  /** The stream's types as a key: streams with the same key and the same view of a batch send the same bytes. */
  typesKey: string;
  /** The highest number sent to the client or passed over as not for it. */
  position: number;
  /** Live events kept aside while the log is being read; null once the stream is live. */
  asideFromFeed: { seq: number; text: string }[] | null;
}

interface Feed {
  organizationId: string;
  streams: Set<Stream>;
  /** The highest number read from the log and handed to the streams. */
  lastSeq: number;
  reading: boolean;
  /** A signal came during a read: read again after it. */
  again: boolean;
  retry: NodeJS.Timeout | undefined;
}

/** An event of a batch, framed once for every stream that sends it. */
interface Frame {
  seq: number;
  row: EventRow;
  text(): string;
}

function frameOf(row: EventRow): Frame {
  let text: string | undefined;
  const seq = Number(row.seq);
  return {
    seq,
    row,
    text: () => {
      text ??= eventFrame(eventId(seq), row.type, JSON.stringify(toEvent(row)));
      return text;
    },
  };
}

function sends(stream: Stream, frame: Frame, audience: EventAudience): boolean {
  return (stream.plan.types === null || stream.plan.types.has(frame.row.type)) && audience.canSee(stream.viewer, frame.row);
}

function readPage(db: Kysely<DB>, organizationId: string, after: number, types?: readonly EventType[]) {
  return listEvents(db, organizationId, { types, afterSeq: after, order: 'asc', limit: PAGE_SIZE });
}

function write(stream: Stream, chunk: string | Buffer): boolean {
  return writeUnlessBehind(stream.response, chunk, MAX_BACKLOG_BYTES);
}

/**
 * Hands a batch read by the feed to each of its streams. Streams that send the same events (same
 * types; admins, or any viewer when the batch holds nothing restricted) share one buffer, built
 * once and written to each of their sockets: a thousand streams do not build a thousand copies.
 */
function dispatch(feed: Feed, rows: readonly EventRow[], audience: EventAudience): void {
  const frames = rows.map(frameOf);
  const first = frames[0]?.seq ?? feed.lastSeq + 1;
  const last = frames[frames.length - 1]?.seq ?? feed.lastSeq;
  const restricted = !rows.every(isSeenByEveryone);
  const shared = new Map<string, Buffer | null>();
  for (const stream of feed.streams) {
    const aside = stream.asideFromFeed;
    if (aside !== null) {
      for (const frame of frames) {
        if (sends(stream, frame, audience)) {
          aside.push({ seq: frame.seq, text: frame.text() });
        }
      }
      if (aside.length > MAX_KEPT_ASIDE) {
        stream.response.destroy();
      }
      continue;
    }
    // A stream that has already sent part of this batch (it has just caught up) takes its own share.
    const alone = stream.position >= first;
    const key = `${stream.typesKey}|${stream.viewer.seeAll || !restricted ? '*' : stream.viewer.userId}`;
    let chunk = alone ? undefined : shared.get(key);
    if (chunk === undefined) {
      let text = '';
      for (const frame of frames) {
        if (frame.seq > stream.position && sends(stream, frame, audience)) {
          text += frame.text();
        }
      }
      chunk = text === '' ? null : Buffer.from(text);
      if (!alone) {
        shared.set(key, chunk);
      }
    }
    stream.position = Math.max(stream.position, last);
    if (chunk !== null) {
      write(stream, chunk);
    }
  }
}

/** The feeds of the organizations with open streams: each reads the log when poked, and hands what it read to its streams. */
interface Feeds {
  /** The organization's feed, made (and looking at the log once) if it has none. */
  feedOf(plan: EventStreamPlan): Feed;
  /** The signal says the log of this organization (or of any, for null) grew. */
  wake(organizationId: string | null): void;
  /** A stream has gone: its feed stops once it has none left. */
  remove(stream: Stream): void;
  /** Stops every feed. */
  clear(): void;
}

function createFeeds(db: Kysely<DB>, log: EventStreamHubDeps['log']): Feeds {
  const feeds = new Map<string, Feed>();

  /** Reads the log after the feed's last number until it is read out, then again if signalled meanwhile. */
  async function read(feed: Feed): Promise<void> {
    feed.reading = true;
    try {
      do {
        feed.again = false;
        for (;;) {
          if (feeds.get(feed.organizationId) !== feed) {
            return;
          }
          const rows = await readPage(db, feed.organizationId, feed.lastSeq);
          const page = rows.slice(0, PAGE_SIZE);
          const last = page[page.length - 1];
          if (last === undefined) {
            break;
          }
          const audience = await loadEventAudience(db, feed.organizationId, page);
          feed.lastSeq = Number(last.seq);
          dispatch(feed, page, audience);
          if (rows.length <= PAGE_SIZE) {
            break;
          }
        }
      } while (feed.again);
    } catch (error) {
      log.error({ err: error, organizationId: feed.organizationId }, 'reading the event log for streams failed');
      clearTimeout(feed.retry);
      feed.retry = setTimeout(() => poke(feed), RETRY_READ_MS);
      feed.retry.unref();
    } finally {
      feed.reading = false;
    }
  }

  function poke(feed: Feed): void {
    if (feed.reading) {
      feed.again = true;
      return;
    }
    read(feed).catch(() => undefined);
  }

  return {
    feedOf(plan) {
      let feed = feeds.get(plan.organizationId);
      if (!feed) {
        // Everything up to `logEnd` was committed when the plan was made; a signal for what came
        // after may have passed before this feed existed, so it looks once at once.
        feed = {
          organizationId: plan.organizationId,
          streams: new Set(),
          lastSeq: plan.logEnd,
          reading: false,
          again: false,
          retry: undefined,
        };
        feeds.set(plan.organizationId, feed);
        poke(feed);
      }
      return feed;
    },
    wake(organizationId) {
      if (organizationId === null) {
        for (const feed of feeds.values()) {
          poke(feed);
        }
        return;
      }
      const feed = feeds.get(organizationId);
      if (feed) {
        poke(feed);
      }
    },
    remove(stream) {
      const feed = feeds.get(stream.plan.organizationId);
      if (feed?.streams.delete(stream) && feed.streams.size === 0) {
        clearTimeout(feed.retry);
        feeds.delete(feed.organizationId);
      }
    },
    clear() {
      for (const feed of feeds.values()) {
        clearTimeout(feed.retry);
      }
      feeds.clear();
    },
  };
}

/** Writes and, when the socket's buffer is full, waits for it to drain (or for the client to leave). */
function writeAndWait(stream: Stream, text: string): Promise<boolean> {
  if (!write(stream, text)) {
    return Promise.resolve(false);
  }
  const { response } = stream;
  if (!response.writableNeedDrain) {
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve(!response.destroyed);
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** Sends the log after the stream's number, then what the feed handed it meanwhile; then it is live. */
async function catchUp(db: Kysely<DB>, stream: Stream): Promise<void> {
  const { organizationId, types } = stream.plan;
  const wanted = types === null ? undefined : [...types];
  for (;;) {
    const rows = await readPage(db, organizationId, stream.position, wanted);
    const page = rows.slice(0, PAGE_SIZE);
    const last = page[page.length - 1];
    if (stream.response.destroyed || last === undefined) {
      break;
    }
    const audience = await loadEventAudience(db, organizationId, page);
    let text = '';
    for (const row of page) {
      if (audience.canSee(stream.viewer, row)) {
        text += frameOf(row).text();
      }
    }
    stream.position = Number(last.seq);
    if (text !== '' && !(await writeAndWait(stream, text))) {
      return;
    }
    if (rows.length <= PAGE_SIZE) {
      break;
    }
  }
  const aside = stream.asideFromFeed ?? [];
  stream.asideFromFeed = null;
  let text = '';
  for (const kept of aside) {
    if (kept.seq > stream.position) {
      text += kept.text;
      stream.position = kept.seq;
    }
  }
  if (text !== '') {
    write(stream, text);
  }
}

/**
 * A stream lasts hours: a key revoked, a session ended, a user removed or demoted meanwhile must
 * not keep it seeing what it could see when it connected. The key cache makes this one lookup per
 * key per API_KEY_CACHE_SECONDS, and streams sharing a key or a session share the check.
 */
async function verifyCallers(streams: Iterable<Stream>, deps: Pick<EventStreamHubDeps, 'auth' | 'verifySession'>): Promise<void> {
  const byCredential = new Map<string, Stream[]>();
  for (const stream of streams) {
    const credential = stream.caller.credential;
    const id = 'apiKey' in credential ? `key:${credential.apiKey}` : `session:${credential.sessionToken}`;
    const group = byCredential.get(id);
    if (group) {
      group.push(stream);
    } else {
      byCredential.set(id, [stream]);
    }
  }
  for (const group of byCredential.values()) {
    const credential = group[0]?.caller.credential;
    if (!credential) {
      continue;
    }
    const principal =
      'apiKey' in credential ? await deps.auth.verify(credential.apiKey) : await deps.verifySession(credential.sessionToken);
    for (const stream of group) {
      if (!principal || principal.userId !== stream.caller.userId || principal.organizationId !== stream.plan.organizationId) {
        stream.response.end();
      } else {
        stream.viewer = eventViewerOf(principal);
      }
    }
  }
}

/** What a stream sends first: `reset` when the log no longer holds what it asked for, then `ready`. */
function openingFrames(plan: EventStreamPlan): string {
  const position = eventId(plan.after);
  let head = '';
  if (plan.reset) {
    head += eventFrame(
      position,
      'reset',
      JSON.stringify({
        lastEventId: position,
        message:
          'The events after your Last-Event-ID are no longer kept: reload what you show, then follow this stream from here.',
      }),
    );
  }
  head += eventFrame(position, 'ready', JSON.stringify({ lastEventId: position }));
  return head;
}

export function createEventStreamHub(deps: EventStreamHubDeps): EventStreamHub {
  const { db, log } = deps;
  const streams = new Set<Stream>();
  const feeds = createFeeds(db, log);
  let unsubscribe: (() => void) | null = null;
  let heartbeat: NodeJS.Timeout | undefined;
  let verifying = false;
  let closed = false;

  function drop(stream: Stream): void {
    streams.delete(stream);
    feeds.remove(stream);
    if (streams.size === 0) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  }

  /**
   * Every heartbeat: a comment to each stream whose socket is not still busy with what it was sent
   * (data on its way keeps the connection alive as well; and a client catching up on big events
   * must not be judged slow for a comment), and each caller's key checked again (deduplicated).
   */
  function beat(): void {
    for (const stream of streams) {
      if (!stream.response.writableNeedDrain) {
        write(stream, HEARTBEAT);
      }
    }
    if (!verifying) {
      verifying = true;
      verifyCallers(streams, deps)
        .catch((error: unknown) => log.warn({ err: error }, 'checking the keys of event streams failed'))
        .finally(() => {
          verifying = false;
        });
    }
  }

  function listen(): void {
    unsubscribe ??= deps.signal.subscribe((organizationId) => feeds.wake(organizationId));
    if (heartbeat === undefined) {
      heartbeat = setInterval(beat, deps.config.EVENT_STREAM_HEARTBEAT_MS);
      heartbeat.unref();
    }
  }

  return {
    get size() {
      return streams.size;
    },
    hasRoom: () => !closed && streams.size < deps.config.EVENT_STREAM_MAX_CONNECTIONS,
    open(response, plan, caller) {
      // A client gone while its stream was being planned has had its `close` already.
      if (closed || response.destroyed) {
        response.end();
        return;
      }
      const feed = feeds.feedOf(plan);
      // A feed that has not passed the stream's number yet hands it everything after it: no log to read.
      const live = feed.lastSeq <= plan.after;
      const stream: Stream = {
        response,
        plan,
        caller,
        viewer: plan.viewer,
        typesKey: plan.types === null ? '*' : [...plan.types].sort().join(','),
        position: plan.after,
        asideFromFeed: live ? null : [],
      };
      streams.add(stream);
      feed.streams.add(stream);
      response.on('close', () => drop(stream));
      listen();
      write(stream, openingFrames(plan));
      if (!live) {
        catchUp(db, stream).catch((error: unknown) => {
          log.error({ err: error, organizationId: plan.organizationId }, 'resuming an event stream failed');
          response.destroy();
        });
      }
    },
    async close() {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe?.();
      for (const stream of [...streams]) {
        // Ended, then closed once flushed: an idle keep-alive connection would hold the server's close.
        stream.response.end(() => stream.response.socket?.destroy());
      }
      feeds.clear();
    },
  };
}
