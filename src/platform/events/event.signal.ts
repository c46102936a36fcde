import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { type NotificationChannel, openNotificationChannel } from '../../db/notifications.js';
import { listEventSequences } from './event.repository.js';

/**
 * Tells the readers of the event log in this process (the live stream, the public site's page
 * cache; the webhook dispatcher can subscribe too) that an organization's log has grown, whichever process wrote it, within
 * EVENT_WATCH_INTERVAL_MS. It says when to look, never what happened: readers read the log after
 * the last number they read, so a signal lost or repeated costs a read, never an event.
 *
 * One process at a time, the holder of the channel's lock, watches the last number of every
 * organization's log (`event_sequences`, one row per organization, committed values only) and
 * NOTIFYs the organizations whose number moved; every process LISTENs. The changes themselves do
 * nothing more than they did: a NOTIFY from their transactions would queue every commit of the
 * database server behind one lock (see `db/notifications.ts`). On SQLite the same watcher runs in
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
   * rather than at the next watch; the others still hear of it then, batched.
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

  function emit(organizationId: string | null): void {
    for (const listener of listeners) {
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

  function start(): void {
    const open = openNotificationChannel(
      deps.db,
      CHANNEL,
      {
        message: (payload) => emit(payload === EVERYTHING ? null : payload),
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
      for (const listener of closed ? [] : eager) {
        try {
          listener(organizationId);
        } catch (error) {
          deps.log.error({ err: error }, 'event signal listener failed');
        }
      }
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      listeners.clear();
      eager.clear();
      await current;
      await channel?.close();
    },
  };
}
