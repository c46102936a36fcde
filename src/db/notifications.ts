import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { postgresSessionSettings } from './connect.js';
import type { DB } from './database.js';
import { dialectOf } from './dialect.js';

/**
 * A channel between the processes serving one database, and a lock that one of them holds at a
 * time. On PostgreSQL: LISTEN/NOTIFY and a session advisory lock, on one session of its own per
 * channel (outside the pool, opened when asked, reopened with backoff when it drops). On SQLite,
 * served by one process: the same calls, answered in the process.
 *
 * Sending is done here, by whoever holds the lock, never inside the transactions of changes: a
 * transaction that has sent a NOTIFY takes a lock of the whole database server at commit and holds
 * it until its commit is flushed, so notifying from every write would queue all of them, of every
 * organization, one fsync at a time (measured with pgbench: 10 writers over 50 organizations went
 * from about 3,200 to 1,800 commits/s with a NOTIFY trigger).
 */
export interface NotificationChannel {
  /** Sends each payload (at most 8,000 bytes) to every process listening, this one included. */
  notify(payloads: readonly string[]): Promise<void>;
  /**
   * Whether this process holds the channel's lock, taking it when it is free. Held until the
   * session ends (this process stops or loses its connection), then another process takes it.
   */
  holdLock(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ChannelHandlers {
  message(payload: string): void;
  /**
   * Listening has (re)started: notifications sent while it was not may be lost, so what depends
   * on them should look again. Called once the first LISTEN is in place, and after each reconnect.
   */
  listening(): void;
}

type Log = Pick<FastifyBaseLogger, 'warn' | 'error'>;

export function openNotificationChannel(db: Kysely<DB>, name: string, handlers: ChannelHandlers, log: Log): NotificationChannel {
  if (dialectOf(db) === 'postgres') {
    const settings = postgresSessionSettings(db);
    if (!settings) {
      throw new Error('notifications need a database opened by connect.ts (its session settings are unknown)');
    }
    return openPostgresChannel(settings, name, handlers, log);
  }
  return openInProcessChannel(handlers);
}

/**
 * Sends payloads on a channel from any process, listening or not (a CLI command; a change that must
 * reach the others even while this process's listening session is reconnecting): one statement of
 * its own on a connection of `db`'s pool, never inside a change's transaction (see above), so call
 * it once the change has committed. Answers whether other processes can hear it: on SQLite, where
 * notifications stay in the process that sends them, nothing is sent and the answer is false.
 */
export async function sendNotification(db: Kysely<DB>, name: string, payloads: readonly string[]): Promise<boolean> {
  if (dialectOf(db) !== 'postgres') {
    return false;
  }
  if (payloads.length > 0) {
    await sql`select pg_notify(${name}, payload) from unnest(${[...payloads]}::text[]) as payload`.execute(db);
  }
  return true;
}

function openInProcessChannel(handlers: ChannelHandlers): NotificationChannel {
  let open = true;
  setImmediate(() => open && handlers.listening());
  return {
    async notify(payloads) {
      // Delivered after the caller's turn, as PostgreSQL would.
      setImmediate(() => {
        for (const payload of payloads) {
          if (open) {
            handlers.message(payload);
          }
        }
      });
    },
    holdLock: async () => open,
    async close() {
      open = false;
    },
  };
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

function openPostgresChannel(settings: pg.ClientConfig, name: string, handlers: ChannelHandlers, log: Log): NotificationChannel {
  const channel = `"${name.replace(/"/g, '""')}"`;
  const lockKey = `notification-channel:${name}`;
  let client: pg.Client | null = null;
  let locked = false;
  let closed = false;
  let backoffMs = MIN_BACKOFF_MS;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({ ...settings, application_name: `switchboard ${name}` });
    // Without a listener, a dropped connection's error event would end the process.
    next.on('error', (error) => dropped(next, error));
    next.on('end', () => dropped(next, null));
    next.on('notification', (message) => {
      if (client === next && message.payload !== undefined) {
        handlers.message(message.payload);
      }
    });
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      next.removeAllListeners('end');
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    locked = false;
    backoffMs = MIN_BACKOFF_MS;
    handlers.listening();
  }

  function dropped(which: pg.Client, error: Error | null): void {
    if (client !== which) {
      return;
    }
    client = null;
    locked = false;
    which.removeAllListeners('end');
    which.end().catch(() => undefined);
    if (!closed) {
      log.warn({ err: error ?? undefined, channel: name }, 'notification session lost; reconnecting');
      schedule(backoffMs);
    }
  }

  function schedule(delayMs: number): void {
    clearTimeout(retry);
    retry = setTimeout(() => {
      connect().catch((error: unknown) => {
        log.error({ err: error, channel: name, retryInMs: backoffMs }, 'notification session could not connect');
        if (!closed) {
          schedule(backoffMs);
          backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
        }
      });
    }, delayMs);
    retry.unref();
  }

  schedule(0);

  return {
    async notify(payloads) {
      if (client === null || payloads.length === 0) {
        return;
      }
      await client.query('select pg_notify($1, payload) from unnest($2::text[]) as payload', [name, [...payloads]]);
    },
    async holdLock() {
      const session = client;
      if (session === null) {
        return false;
      }
      if (!locked) {
        const { rows } = await session.query<{ locked: boolean }>(
          'select pg_try_advisory_lock(hashtextextended($1, 0)) as locked',
          [lockKey],
        );
        // The session may have dropped (and the lock with it) while the query ran.
        locked = client === session && rows[0]?.locked === true;
      }
      return locked;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const session = client;
      client = null;
      locked = false;
      if (session) {
        session.removeAllListeners('end');
        await session.end().catch(() => undefined);
      }
    },
  };
}
