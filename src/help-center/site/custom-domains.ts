import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, onSendHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { type NotificationChannel, openNotificationChannel, sendNotification } from '../../db/notifications.js';
import { listCustomDomains } from '../help-centers/help-center.service.js';

/**
 * Help centers served at the root of their own domain. Fastify's `rewriteUrl` is synchronous, so
 * the domains live in memory: loaded at start, loaded again in every process when one of them
 * changes a help center (NOTIFY on `switchboard_custom_domains` on PostgreSQL), when listening
 * (re)starts, and every 30 s in case a change came another way. The map only routes: the page's
 * help center is read from the database, and a request whose domain that row no longer names is
 * a 404 (`servesHelpCenter`), so a process that has not heard of a change yet never shows one
 * organization's pages on a domain that is now another's.
 */
export interface CustomDomainSite {
  domain: string;
  helpCenterId: string;
  slug: string;
}

export interface CustomDomains {
  /** The URL Fastify routes a request by: `/hc/{slug}{url}` on a custom domain, else the URL as sent. */
  rewrite(request: IncomingMessage): string;
  /** Reads the domains again in this process. */
  reload(): Promise<void>;
  /** After a help center's change has committed: this process reloads, and tells the others. */
  changed(): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'switchboard_custom_domains';
const RELOAD_EVERY_MS = 30_000;

/** Paths a custom domain answers as the shared host does: the site's assets, robots.txt, health checks. */
const KEPT_PATHS = /^(?:\/hc-assets\/|\/(?:robots\.txt|healthz|readyz)(?:\?|$))/;

const arrivedOn = new WeakMap<IncomingMessage, CustomDomainSite>();

/** The custom domain the request came to, as `rewrite` found it; undefined on the shared host. */
export const customDomainOf = (request: IncomingMessage): CustomDomainSite | undefined => arrivedOn.get(request);

/**
 * Whether the help center may answer this request: always on the shared host; on a custom domain
 * only the help center that the database says owns the domain now.
 */
export function servesHelpCenter(request: IncomingMessage, helpCenter: { id: string; customDomain: string | null }): boolean {
  const site = customDomainOf(request);
  return site === undefined || (site.helpCenterId === helpCenter.id && site.domain === helpCenter.customDomain);
}

/** A `Host` header as a stored domain: lower-case, without a port or the final dot. */
export function domainOfHost(host: string | undefined): string | undefined {
  if (!host) {
    return undefined;
  }
  const name = host
    .trim()
    .toLowerCase()
    .replace(/:[0-9]*$/, '')
    .replace(/\.$/, '');
  return name === '' ? undefined : name;
}

export function createCustomDomains(deps: { db: Kysely<DB>; log: Pick<FastifyBaseLogger, 'warn' | 'error'> }): CustomDomains {
  const { db, log } = deps;
  let sites = new Map<string, CustomDomainSite>();
  let loading: Promise<void> | null = null;
  let again = false;

  const load = async () => {
    const rows = await listCustomDomains(db);
    sites = new Map(rows.map((row) => [row.domain, { domain: row.domain, helpCenterId: row.helpCenterId, slug: row.slug }]));
  };
  // One load at a time; a reload asked for meanwhile runs once more after it, so none reads older data than asked.
  const reload = (): Promise<void> => {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      try {
        do {
          again = false;
          await load();
        } while (again);
      } finally {
        loading = null;
      }
    })();
    return loading;
  };
  const reloadLogged = () => {
    reload().catch((error: unknown) => log.error({ err: error }, 'reading the custom domains failed'));
  };

  const channel: NotificationChannel = openNotificationChannel(
    db,
    CHANNEL,
    { message: reloadLogged, listening: reloadLogged },
    log,
  );
  const timer = setInterval(reloadLogged, RELOAD_EVERY_MS);
  timer.unref();

  return {
    rewrite(request) {
      const url = request.url ?? '/';
      // Without custom domains (most installations) the host is not even read: this runs on every request.
      if (sites.size === 0) {
        return url;
      }
      const domain = domainOfHost(request.headers.host);
      const site = domain === undefined ? undefined : sites.get(domain);
      if (!site) {
        return url;
      }
      arrivedOn.set(request, site);
      if (KEPT_PATHS.test(url)) {
        return url;
      }
      // Everything else is the help center's: the API areas' paths land on its 404 page.
      return `/hc/${site.slug}${url.startsWith('/') ? url : `/${url}`}`;
    },
    reload,
    async changed() {
      await reload();
      try {
        await sendNotification(db, CHANNEL, ['changed']);
      } catch (error) {
        log.error({ err: error }, 'telling the other processes of a custom domain change failed');
      }
    },
    async close() {
      clearInterval(timer);
      await channel.close();
    },
  };
}

/**
 * Reloads the domains once a help center's update has answered (committed): its custom domain or
 * slug may have changed. Before the answer leaves, so that the caller's next request finds it.
 * Hooked to that one route as it is added, so no other request pays for the check.
 */
export function reloadAfterHelpCenterUpdates(app: FastifyInstance, domains: CustomDomains): void {
  const reloadOnSuccess: onSendHookHandler = async (_request, reply, payload) => {
    if (reply.statusCode < 300) {
      await domains.changed();
    }
    return payload;
  };
  app.addHook('onRoute', (route) => {
    if (route.method === 'PATCH' && route.url === '/help-centers/:id') {
      const existing = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
      route.onSend = [...existing, reloadOnSuccess];
    }
  });
}
