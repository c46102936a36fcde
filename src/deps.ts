import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AreaName, Config } from './config.js';
import type { DB } from './db/database.js';
import type { SitePageCache } from './help-center/site/site-page-cache.js';
import type { ApiKeyAuth, Authenticate } from './http/api-key-auth.js';
import type { ErrorRenderer } from './http/area.js';
import type { RequestLimits } from './http/rate-limits.js';
import type { Clock } from './lib/clock.js';
import type { IdFactory } from './lib/ids.js';
import type { Metrics } from './lib/metrics.js';
import type { EventSignal } from './platform/events/event.signal.js';

/** The OpenAPI documents served at `/docs/*.json`: one per API area, and the messenger's. */
export type ApiDocumentName = AreaName | 'messenger';

/** What every area and feature is handed; nothing is read from globals or the environment. */
export interface AppDeps {
  config: Config;
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  log: FastifyBaseLogger;
  /** The process's Prometheus metrics (`GET /metrics`): services count what they did through it. */
  metrics: Metrics;
  auth: ApiKeyAuth;
  /**
   * Call once a change to a user's credentials has committed (a key revoked, the user disabled,
   * enabled or given another role): this process forgets the user's cached keys before it answers,
   * and every other process is told to (`platform/users/credentials.signal.ts`). Never fails.
   */
  credentialsChanged(userId: string): Promise<void>;
  /**
   * Says when an organization's event log has grown, in any process: one per app, for the live
   * event streams and the public site's page cache; it listens once something subscribes.
   */
  eventSignal: EventSignal;
  /**
   * The public help-center site's rendered pages, one cache per app. Once a change the site shows
   * has committed, `sitePages.changed(organizationId)` forgets the organization's pages before the
   * answer leaves (other processes learn it from the event log).
   */
  sitePages: SitePageCache;
  /** The `onRequest` hook identifying the caller by API key, with the rate limits of failed and keyed requests. */
  authenticate: Authenticate;
  /** The same, also accepting a signed-in browser's session cookie (the platform's hook). */
  authenticateWithSession: Authenticate;
  /** The rate limits, for routes that count on their own (sign-in, password reset). */
  limits: RequestLimits;
  /** 32-byte key sealing stored credentials (see `lib/secret-box.ts`). */
  secretKey: Buffer;
  /** Each area registers a function producing its OpenAPI document once routes are ready. */
  docs: Map<ApiDocumentName, () => unknown>;
  /** Each area registers its error renderer, for requests that fail before reaching any route. */
  errorRenderers: Map<AreaName, ErrorRenderer>;
}
