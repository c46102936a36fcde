import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AreaName, Config } from './config.js';
import type { DB } from './db/database.js';
import type { ApiKeyAuth, Authenticate } from './http/api-key-auth.js';
import type { ErrorRenderer } from './http/area.js';
import type { Clock } from './lib/clock.js';
import type { IdFactory } from './lib/ids.js';

/** What every area and feature is handed; nothing is read from globals or the environment. */
export interface AppDeps {
  config: Config;
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  log: FastifyBaseLogger;
  auth: ApiKeyAuth;
  /** The `onRequest` hook identifying the caller, with the rate limits of failed and keyed requests. */
  authenticate: Authenticate;
  /** 32-byte key sealing stored credentials (see `lib/secret-box.ts`). */
  secretKey: Buffer;
  /** Each area registers a function producing its OpenAPI document once routes are ready. */
  docs: Map<AreaName, () => unknown>;
  /** Each area registers its error renderer, for requests that fail before reaching any route. */
  errorRenderers: Map<AreaName, ErrorRenderer>;
}
