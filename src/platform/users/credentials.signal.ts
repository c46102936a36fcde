import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { type NotificationChannel, openNotificationChannel, sendNotification } from '../../db/notifications.js';

/**
 * Makes a change to a user's credentials take effect at once in every process serving the
 * database, although each process caches verified API keys (API_KEY_CACHE_SECONDS): a key revoked,
 * the user disabled or enabled, or given another role (a key's principal carries the role).
 *
 * The process making the change forgets the user's cached keys itself before it answers, then
 * NOTIFYs the user's id on `switchboard_credentials` once the change has committed; every process
 * LISTENs and forgets that user's cached keys, and forgets them all whenever listening (re)starts,
 * since what was sent meanwhile is lost. On SQLite, served by one process, forgetting locally is
 * all there is to do. Sessions are not cached (each request looks its session up), so they need
 * nothing of this.
 */
export interface CredentialsSignal {
  /**
   * Call after the change has committed. Never fails: the change stands; a notification that
   * cannot be sent is logged, and the other processes then keep the key for API_KEY_CACHE_SECONDS.
   */
  changed(userId: string): Promise<void>;
  close(): Promise<void>;
}

/** What forgets cached principals: the API-key cache of `http/api-key-auth.ts`. */
export interface PrincipalCache {
  forgetUser(userId: string): void;
  forgetAll(): void;
}

export interface CredentialsSignalDeps {
  db: Kysely<DB>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  cache: PrincipalCache;
  /** Whether to listen: a cache that keeps nothing (API_KEY_CACHE_SECONDS=0) has nothing to forget. */
  listen: boolean;
}

const CHANNEL = 'switchboard_credentials';

/** Listens from now on (when asked to) until `close`. */
export function createCredentialsSignal(deps: CredentialsSignalDeps): CredentialsSignal {
  const { cache, log } = deps;
  const channel: NotificationChannel | null = deps.listen
    ? openNotificationChannel(
        deps.db,
        CHANNEL,
        { message: (userId) => cache.forgetUser(userId), listening: () => cache.forgetAll() },
        log,
      )
    : null;
  return {
    async changed(userId) {
      cache.forgetUser(userId);
      try {
        await announceCredentialsChanged(deps.db, [userId]);
      } catch (error) {
        log.error({ err: error, userId }, 'telling the other processes of a credentials change failed');
      }
    },
    async close() {
      await channel?.close();
    },
  };
}

/**
 * Tells every process serving the database that these users' credentials changed, from a process
 * that caches none (a CLI command). Answers whether other processes can hear it: false on SQLite,
 * where a server running beside the command keeps what it cached for up to API_KEY_CACHE_SECONDS.
 */
export function announceCredentialsChanged(db: Kysely<DB>, userIds: readonly string[]): Promise<boolean> {
  return sendNotification(db, CHANNEL, userIds);
}
