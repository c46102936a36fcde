import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { type NotificationChannel, openNotificationChannel, sendNotification } from '../../db/notifications.js';
import { listEventSequences } from './event.repository.js';

/**
 * Tells the readers of the event log in this process (the live stream, the public site's page
 * cache; the webhook dispatcher can subscribe too) that an organization's log has grown, whichever process wrote it, within
 * EVENT_WATCH_INTERVAL_MS. It says when to look, never what happened: readers read the log after
 * the last number they read, so a signal lost or repeated costs a read, never an event.
 *
 * One process at a time, the holder of the channel's lock, watches the last number of every
 * organization's log (`event_sequences`, one row per organization, committed values only) and
 * NOTIFYs the organizations whose number moved; every process LISTENs. The changes' transactions
 * do nothing more than they did: a NOTIFY from them would queue every commit of the database
 * server behind one lock (see `db/notifications.ts`). What a person waits on live is told sooner:
 * after a request's write has committed (`wroteHere`), its process tells the eager listeners of
 * every process, in one NOTIFY of its own per EAGER_SPACING_MS. On SQLite the same watcher runs in
 * the one process and tells it directly.
 */
export interface EventSignal {
  /**
   * Calls `listener` with an organization whose log may have grown, or with null when any may have
   * (listening has just started or resumed after a lost connection). Returns the unsubscribe.
   */
  subscribe(listener: (organizationId: string | null) => void, options?: { eagerly?: boolean }): () => void;
  /**
   * This process has just committed a change of the organization: the listeners that subscribed
   * `eagerly` (live views a person waits on, such as the messenger's panels) are told at once
   * rather than at the next watch, in this process and, on PostgreSQL, in the others within
   * EAGER_SPACING_MS; the other listeners still hear of it at the watch, batched.
   */
  wroteHere(organizationId: string): void;
  close(): Promise<void>;
}

export interface EventSignalDeps {
  db: Kysely<DB>;
  config: Pick<Config, 'EVENT_WATCH_INTERVAL_MS'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

const CHANNEL = 'switchboard_events';
/** Sent when the watcher cannot tell what moved (it has just taken the watch over): look at everything. */
const EVERYTHING = '*';
/** `eager:<sending process>:<organization>,<organization>…`: a writer's own word, for eager listeners only. */
const EAGER_PREFIX = 'eager:';
/**
 * The least time between two eager notifications of one process. A writer's NOTIFY is a statement
 * of its own after the change's commit (never inside it, see `db/notifications.ts`), and the
 * organizations written meanwhile go in the next one: under any write load a process sends at most
 * 40 a second, and a panel waits at most this long more than in the writer's own process.
 */
export const EAGER_SPACING_MS = 25;
/** Payloads stay under PostgreSQL's 8,000 bytes: 200 identifiers of up to 36 characters. */
const EAGER_BATCH = 200;

/** Starts watching and listening on the first subscription, and runs until `close`. */
export function createEventSignal(deps: EventSignalDeps): EventSignal {
  const listeners = new Set<(organizationId: string | null) => void>();
  const eager = new Set<(organizationId: string | null) => void>();
  let channel: NotificationChannel | null = null;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let closed = false;
  /** The numbers the watcher last published; null while another process watches. */
  let published: Map<string, number> | null = null;
  let failing = false;
  /** Tells apart this process's eager notifications, which its listeners have already heard. */
  const processToken = randomUUID();
  const remote = createEagerSender(deps, processToken);

  function emit(organizationId: string | null, to: Iterable<(organizationId: string | null) => void> = listeners): void {
    for (const listener of to) {
      try {
        listener(organizationId);
      } catch (error) {
        deps.log.error({ err: error }, 'event signal listener failed');
      }
    }
  }

  async function watch(open: NotificationChannel): Promise<void> {
    if (!(await open.holdLock())) {
      published = null;
      return;
    }
    const sequences = await listEventSequences(deps.db);
    if (published === null) {
      published = new Map(sequences.map((row) => [row.organization_id, row.last_seq]));
      await open.notify([EVERYTHING]);
      return;
    }
    const moved: string[] = [];
    for (const row of sequences) {
      if (published.get(row.organization_id) !== row.last_seq) {
        published.set(row.organization_id, row.last_seq);
        moved.push(row.organization_id);
      }
    }
    await open.notify(moved);
  }

  function schedule(open: NotificationChannel): void {
    timer = setTimeout(() => {
      current = watch(open).then(
        () => {
          failing = false;
        },
        (error: unknown) => {
          // Once per failing streak: a database that is down would otherwise log several lines a second.
          if (!failing) {
            deps.log.error({ err: error }, 'watching the event log failed; retrying');
          }
          failing = true;
          published = null;
        },
      );
      current.then(() => {
        if (!closed) {
          schedule(open);
        }
      });
    }, deps.config.EVENT_WATCH_INTERVAL_MS);
    timer.unref();
  }

  function heardEager(payload: string): void {
    const [sender, organizations] = splitOnce(payload.slice(EAGER_PREFIX.length), ':');
    if (sender === processToken || organizations === undefined) {
      return;
    }
    for (const organizationId of organizations.split(',')) {
      emit(organizationId, eager);
    }
  }

  function start(): void {
    const open = openNotificationChannel(
      deps.db,
      CHANNEL,
      {
        message: (payload) => {
          if (payload.startsWith(EAGER_PREFIX)) {
            heardEager(payload);
          } else {
            emit(payload === EVERYTHING ? null : payload);
          }
        },
        listening: () => emit(null),
      },
      deps.log,
    );
    channel = open;
    schedule(open);
  }

  return {
    subscribe(listener, options = {}) {
      if (closed) {
        throw new Error('the event signal is closed');
      }
      listeners.add(listener);
      if (options.eagerly) {
        eager.add(listener);
      }
      if (channel === null) {
        start();
      }
      return () => {
        listeners.delete(listener);
        eager.delete(listener);
      };
    },
    wroteHere(organizationId) {
      if (closed) {
        return;
      }
      emit(organizationId, eager);
      remote.add(organizationId);
    },
    async close() {
      closed = true;
      await remote.close();
      clearTimeout(timer);
      listeners.clear();
      eager.clear();
      await current;
      await channel?.close();
    },
  };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}

/**
 * Sends the organizations this process wrote to the other processes' eager listeners: at once
 * when nothing was sent in the last EAGER_SPACING_MS, else together at the end of it. On SQLite
 * (one process) it sends nothing. A failed send is logged and dropped: the watch still tells.
 */
function createEagerSender(deps: EventSignalDeps, processToken: string) {
  const pending = new Set<string>();
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> = Promise.resolve();
  let failing = false;
  let closed = false;
  const enabled = dialectOf(deps.db) === 'postgres';

  function send(): void {
    timer = undefined;
    const organizations = [...pending];
    pending.clear();
    lastSentAt = performance.now();
    const payloads: string[] = [];
    for (let start = 0; start < organizations.length; start += EAGER_BATCH) {
      payloads.push(`${EAGER_PREFIX}${processToken}:${organizations.slice(start, start + EAGER_BATCH).join(',')}`);
    }
    sending = sendNotification(deps.db, CHANNEL, payloads).then(
      () => {
        failing = false;
      },
      (error: unknown) => {
        if (!failing) {
          deps.log.warn({ err: error }, 'telling the other processes of a write failed; they hear of it at the watch');
        }
        failing = true;
      },
    );
  }

  return {
    add(organizationId: string): void {
      if (!enabled || closed) {
        return;
      }
      pending.add(organizationId);
      if (timer === undefined) {
        const wait = Math.max(0, lastSentAt + EAGER_SPACING_MS - performance.now());
        // A zero wait still waits for the end of this turn, so one request's writes go in one NOTIFY.
        timer = setTimeout(send, wait);
        timer.unref();
      }
    },
    async close(): Promise<void> {
      closed = true;
      clearTimeout(timer);
      await sending;
    },
  };
}
