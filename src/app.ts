import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { agentStudioPlugin } from './agent-studio/agent-studio.plugin.js';
import { messengerPlugin } from './channels/messenger/messenger.plugin.js';
import { widgetAssetsPlugin } from './channels/messenger/widget-assets.plugin.js';
import { slackRoutes } from './channels/slack/slack.routes.js';
import { slackAdminRoutes } from './channels/slack/slack-admin.routes.js';
import { AREAS, type AreaName, type Config, trustProxyOption } from './config.js';
import type { DB } from './db/database.js';
import { registerDatabaseMetrics } from './db/database-metrics.js';
import type { ApiDocumentName, AppDeps } from './deps.js';
import { helpCenterPlugin } from './help-center/help-center.plugin.js';
import { createCustomDomains, reloadAfterHelpCenterUpdates } from './help-center/site/custom-domains.js';
import { helpCenterSitePlugin, SITE_ASSETS_PREFIX, siteAssetsPlugin, siteRootPlugin } from './help-center/site/site.plugin.js';
import { siteDepsOf, siteSignInDepsOf } from './help-center/site/site-deps.js';
import { createSitePageCache } from './help-center/site/site-page-cache.js';
import { type ApiKeyAuth, createApiKeyAuth, createAuthenticate } from './http/api-key-auth.js';
import type { ErrorRenderer } from './http/area.js';
import { createFrameworkErrorHandler, MAX_PARAM_LENGTH } from './http/framework-errors.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { createRequestLogger, registerRequestLog } from './http/logging.js';
import { registerMetricsNotExposed, registerMetricsRoute, requestMetricsObserver } from './http/metrics.js';
import { registerRateLimits } from './http/rate-limits.js';
import { createSerializerFactory } from './http/serialization.js';
import { createValidatorCompiler } from './http/validation.js';
import type { Clock } from './lib/clock.js';
import { createIdFactory, type IdFactory } from './lib/ids.js';
import { loadOnce } from './lib/load-once.js';
import { createMetrics, type Metrics } from './lib/metrics.js';
import { decodeSecretKey } from './lib/secret-box.js';
import { authenticateSession } from './platform/auth/session.service.js';
import { createEventSignal } from './platform/events/event.signal.js';
import { platformPlugin } from './platform/platform.plugin.js';
import { apiKeyLookup } from './platform/users/api-key.service.js';
import { type CredentialsSignal, createCredentialsSignal } from './platform/users/credentials.signal.js';
import { consolePlugin } from './web-console/console.plugin.js';

export interface BuildAppOptions {
  config: Config;
  db: Kysely<DB>;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Which API areas this instance serves; all three unless they have ports of their own. */
  areas?: readonly AreaName[];
  ids?: IdFactory;
  /** Share one key cache between the listeners of one process. */
  auth?: ApiKeyAuth;
  /**
   * The signal that makes `auth` forget what changed, shared likewise and closed by its owner.
   * Without one, the app opens its own for its key cache and closes it with the app.
   */
  credentials?: CredentialsSignal;
  /**
   * The key sealing stored credentials, as `startServer` resolved it. Without one, `SECRET_KEY`
   * is used when set, else a random key for this instance only (tests, the OpenAPI export).
   */
  secretKey?: Buffer;
  /**
   * Compile every route's validators and response serializers at `ready()`, as Fastify does by
   * default, so a schema they refuse fails there (the schema test). Otherwise each is compiled on
   * its first use, which keeps the start under a second.
   */
  compileSchemasAtStart?: boolean;
  /**
   * The process's metrics, shared by its listeners (`startServer` makes them). Without them the
   * app makes its own, with the database's gauges: tests building several apps never collide.
   */
  metrics?: Metrics;
  /** Whether this app answers `GET /metrics` (see `planListeners`); by default when only `METRICS_TOKEN` is set. */
  servesMetrics?: boolean;
}

export const DOC_FILES: Record<ApiDocumentName, string> = {
  platform: 'platform.json',
  helpCenter: 'help-center.json',
  agentStudio: 'agent-studio.json',
  messenger: 'messenger.json',
};

const DOC_TITLES: Record<ApiDocumentName, string> = {
  platform: 'Support platform (/v1)',
  helpCenter: 'Help center',
  agentStudio: 'Agent studio (/api/v1)',
  messenger: 'Messenger (/widget/{slug}/api)',
};

/** The documents an app serving `areas` has: the messenger's comes with the help center, which it is mounted beside. */
export function documentsOf(areas: readonly AreaName[]): ApiDocumentName[] {
  return areas.includes('helpCenter') ? [...areas, 'messenger'] : [...areas];
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

const DEPS_OF_APP = new WeakMap<FastifyInstance, AppDeps>();

/**
 * What an app built by `buildApp` hands its areas: for the background work that acts through an
 * app's services outside a request (agents on tickets run through the app's agent runtime).
 */
export function depsOfApp(app: FastifyInstance): AppDeps {
  const deps = DEPS_OF_APP.get(app);
  if (!deps) {
    throw new Error('not an app built by buildApp');
  }
  return deps;
}

/** The areas the console calls with its session cookie (their `setUpArea` says `acceptsSessions`). */
const SESSION_AREAS: ReadonlySet<AreaName> = new Set<AreaName>(['platform', 'agentStudio', 'helpCenter']);

/** Slack's routes in the platform: the signed ones (raw bodies), and the admin's JSON ones apart from their parser. */
function slackChannelRoutes(deps: AppDeps) {
  return [
    { prefix: '/integrations/slack', routes: slackRoutes(deps) },
    { prefix: '/integrations/slack', routes: slackAdminRoutes(deps) },
  ];
}

/** Builds the HTTP application; never listens (see `server.ts`). */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db, clock } = options;
  const areas = options.areas ?? AREAS;
  const errorRenderers = new Map<AreaName, ErrorRenderer>();
  const compileOnFirstUse = !options.compileSchemasAtStart;
  let deps: AppDeps | undefined;
  // Help centers' own domains serve their site at the root (routed to `/hc/{slug}/…`).
  const customDomains = areas.includes('helpCenter') ? createCustomDomains({ db, log: options.log }) : undefined;
  const app = Fastify({
    loggerInstance: options.log,
    childLoggerFactory: createRequestLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    trustProxy: trustProxyOption(config),
    // One line per request comes from `registerRequestLog`.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    ...(customDomains ? { rewriteUrl: (request: IncomingMessage) => customDomains.rewrite(request) } : {}),
    schemaController: { compilersFactory: { buildSerializer: createSerializerFactory({ compileOnFirstUse }) } },
    frameworkErrors: createFrameworkErrorHandler(() => {
      if (!deps) {
        throw new Error('a request arrived before the app was built');
      }
      const { authenticate, authenticateWithSession } = deps;
      // The console's areas (the platform, the agent studio, the help center) also accept session cookies, as the areas themselves do.
      return {
        authenticate: (area: AreaName) => (SESSION_AREAS.has(area) ? authenticateWithSession : authenticate),
        renderers: errorRenderers,
      };
    }),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(createValidatorCompiler({ compileOnFirstUse }));
  registerJsonBodyParser(app);
  const metrics = options.metrics ?? ownMetrics({ db, clock, log: options.log });
  registerRequestLog(app, [requestMetricsObserver(metrics)]);

  const auth =
    options.auth ??
    createApiKeyAuth({ lookup: apiKeyLookup(db, { clock, log: options.log }), ttlSeconds: config.API_KEY_CACHE_SECONDS });
  const credentials = options.credentials ?? ownCredentialsSignal(app, { config, db, log: options.log, cache: auth });
  const limits = await registerRateLimits(app, config, { db, clock });
  const eventSignal = createEventSignal({ config, db, log: options.log });
  const sitePages = createSitePageCache({ db, config, signal: eventSignal, log: options.log, now: () => clock.now().getTime() });
  // After the hub's preClose: what subscribed is gone by then.
  app.addHook('onClose', async () => {
    sitePages.close();
    await eventSignal.close();
  });
  deps = {
    config,
    db,
    clock,
    log: options.log,
    metrics,
    ids: options.ids ?? createIdFactory(clock),
    auth,
    credentialsChanged: (userId) => credentials.changed(userId),
    eventSignal,
    sitePages,
    authenticate: createAuthenticate(auth, limits),
    authenticateWithSession: createAuthenticate(auth, limits, {
      verify: (token) => authenticateSession({ db, clock }, token),
      config,
    }),
    limits,
    secretKey: options.secretKey ?? (config.SECRET_KEY ? decodeSecretKey(config.SECRET_KEY) : randomBytes(32)),
    docs: new Map(),
    errorRenderers,
  };

  DEPS_OF_APP.set(app, deps);
  registerMetrics(app, options, metrics);
  registerOperationalRoutes(app, db);
  registerDocs(app, deps, areas);

  if (areas.includes('platform')) {
    await app.register(platformPlugin(deps, slackChannelRoutes(deps)), { prefix: '/v1' });
    // The console is a client of the platform API, served beside it so its cookie and CSRF checks hold.
    await app.register(consolePlugin(), { prefix: '/app' });
  }
  if (areas.includes('agentStudio')) {
    await app.register(agentStudioPlugin(deps), { prefix: '/api/v1' });
  }
  if (customDomains) {
    app.addHook('onClose', () => customDomains.close());
    // A database not migrated yet (the OpenAPI export) has none; the next reload finds them.
    await customDomains.reload().catch((error: unknown) => options.log.warn({ err: error }, 'custom domains not read'));
    reloadAfterHelpCenterUpdates(app, customDomains);
    // The public site first: its `/hc` prefix has a not-found page of its own.
    await app.register(siteAssetsPlugin(), { prefix: SITE_ASSETS_PREFIX });
    await app.register(widgetAssetsPlugin());
    const siteSignIn = siteSignInDepsOf(deps);
    const siteDeps = siteDepsOf(deps, siteSignIn);
    await app.register(helpCenterSitePlugin(siteDeps, siteSignIn), { prefix: '/hc' });
    await app.register(siteRootPlugin(siteDeps));
    // The messenger's panel and API answer beside the public site, on the host its pages name.
    await app.register(messengerPlugin(deps), { prefix: '/widget' });
    // No prefix: the help center's not-found handler also answers every unknown top-level path.
    await app.register(helpCenterPlugin(deps));
  } else {
    app.setNotFoundHandler((request, reply) =>
      reply
        .code(404)
        .send({ statusCode: 404, message: `Cannot ${request.method} ${request.url.split('?')[0]}`, error: 'Not Found' }),
    );
  }
  return app;
}

/** A credentials signal for an app's own key cache, listening only when the cache keeps keys; closed with the app. */
function ownCredentialsSignal(
  app: FastifyInstance,
  deps: { config: Config; db: Kysely<DB>; log: FastifyBaseLogger; cache: ApiKeyAuth },
): CredentialsSignal {
  const signal = createCredentialsSignal({ ...deps, listen: deps.config.API_KEY_CACHE_SECONDS > 0 });
  app.addHook('onClose', () => signal.close());
  return signal;
}

/** An app's own metrics, when its process hands it none: the database's gauges on a registry of its own. */
function ownMetrics(deps: { db: Kysely<DB>; clock: Clock; log: FastifyBaseLogger }): Metrics {
  const metrics = createMetrics();
  registerDatabaseMetrics(metrics, deps);
  return metrics;
}

/** `GET /metrics` where it is exposed (by default: `METRICS_TOKEN` set, no `METRICS_PORT`); every request is counted by `requestMetricsObserver`. */
function registerMetrics(app: FastifyInstance, options: BuildAppOptions, metrics: Metrics): void {
  const { METRICS_TOKEN, METRICS_PORT } = options.config;
  if (options.servesMetrics ?? (METRICS_TOKEN !== undefined && METRICS_PORT === undefined)) {
    registerMetricsRoute(app, metrics, METRICS_TOKEN);
  } else {
    registerMetricsNotExposed(app);
  }
}

function registerOperationalRoutes(app: FastifyInstance, db: Kysely<DB>): void {
  const hidden = { hide: true };
  app.get('/healthz', { config: { public: true }, schema: hidden }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, schema: hidden }, async (request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}

/**
 * Browser code the reference runs once it is shown. Its key field's placeholder is fixed in its
 * bundle (a base64 joke); this shows the shape of a Switchboard key there instead. A string, not a
 * function of this module, so what the browser gets does not depend on how this file was compiled.
 */
const SHOW_KEY_PLACEHOLDER = new Function(`
  if (document.body.dataset.keyPlaceholder) return;
  document.body.dataset.keyPlaceholder = 'sbk_…';
  new MutationObserver(() => {
    for (const input of document.querySelectorAll('input[placeholder="QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT"]')) {
      input.setAttribute('placeholder', 'sbk_…');
    }
  }).observe(document.body, { childList: true, subtree: true });
`) as () => void;

/**
 * What the reference plugin answers under `/docs`: the page, its script, and the redirect from
 * `/docs` to the page. Anything else under `/docs/` stays with the help center's not-found handler.
 */
const REFERENCE_PATHS = ['/docs', '/docs/', '/docs/js/scalar.js'];

/** Headers of the reference's answers that belong to its own connection, not to ours. */
const HOP_HEADERS = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);

function registerDocs(app: FastifyInstance, deps: AppDeps, areas: readonly AreaName[]): void {
  for (const name of documentsOf(areas)) {
    app.get(`/docs/${DOC_FILES[name]}`, { config: { public: true }, schema: { hide: true } }, async () => {
      const document = deps.docs.get(name);
      return document ? document() : {};
    });
  }
  // The reference's plugin and its 4 MB bundle are loaded on the first visit, not at every start:
  // they live in a Fastify instance of their own (a plugin cannot add routes to a started one),
  // which these routes hand the request to. HEAD is answered from the GET, as for any route.
  const reference = loadOnce(() => buildReferenceApp(areas));
  for (const path of REFERENCE_PATHS) {
    app.get(path, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const answer = await (await reference()).inject({ method: 'GET', url: request.url });
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_HEADERS.has(name)) {
          reply.header(name, value);
        }
      }
      return reply.code(answer.statusCode).send(answer.rawPayload);
    });
  }
}

async function buildReferenceApp(areas: readonly AreaName[]): Promise<FastifyInstance> {
  const { default: scalarReference } = await import('@scalar/fastify-api-reference');
  const reference = Fastify();
  // A self-hosted install, possibly offline: the page and its script come from this server (the
  // plugin serves the bundle at /docs/js/scalar.js), fonts are the system's, and none of Scalar's
  // cloud features (AI agent, MCP generator, share/deploy toolbar, telemetry) is offered.
  const offline = { agent: { disabled: true } };
  await reference.register(scalarReference, {
    routePrefix: '/docs',
    configuration: {
      title: 'Switchboard API reference',
      pageTitle: 'Switchboard API reference',
      sources: documentsOf(areas).map((name) => ({ title: DOC_TITLES[name], url: `/docs/${DOC_FILES[name]}`, ...offline })),
      ...offline,
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      telemetry: false,
      withDefaultFonts: false,
      documentDownloadType: 'json',
      authentication: { preferredSecurityScheme: 'apiKey' },
      onLoaded: SHOW_KEY_PLACEHOLDER,
    },
  });
  await reference.ready();
  return reference;
}
