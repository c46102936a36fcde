import type { FastifyInstance } from 'fastify';
import { listPublicHelpCenterAddresses } from '../help-centers/help-center.service.js';
import { customDomainOf, servesHelpCenter } from './custom-domains.js';
import type { SiteDeps } from './site.routes.js';
import { findSiteHelpCenter } from './site.service.js';
import { canonicalAddress, type SiteAddress, sitePaths } from './site-address.js';

const sitemapUrlOf = (address: SiteAddress) => {
  const canonical = canonicalAddress(address);
  return sitePaths.absolute(canonical, sitePaths.sitemap(canonical));
};

/** The host's public sitemaps: its help center's on a custom domain, else every public help center's. */
async function sitemapsFor(deps: SiteDeps, request: Parameters<SiteDeps['addressOf']>[0]): Promise<string[]> {
  const site = customDomainOf(request.raw);
  if (!site) {
    const helpCenters = await listPublicHelpCenterAddresses(deps.db);
    return [...new Set(helpCenters.map((helpCenter) => sitemapUrlOf(deps.addressOf(request, helpCenter))))];
  }
  const helpCenter = await findSiteHelpCenter(deps.db, site.slug);
  if (!helpCenter || helpCenter.isProtected || !servesHelpCenter(request.raw, helpCenter)) {
    return [];
  }
  return [sitemapUrlOf(deps.addressOf(request, helpCenter))];
}

/**
 * `/robots.txt` at the host's root: everything may be crawled but search results and sign-in
 * pages (which also say `noindex`), and the sitemaps are named. Registered at the root, beside
 * the help-center API, whose not-found handler answers every other top-level path.
 */
export function registerRobotsRoute(app: FastifyInstance, deps: SiteDeps): void {
  app.get('/robots.txt', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const prefix = customDomainOf(request.raw) ? '' : '/hc/*';
    const lines = ['User-agent: *', 'Allow: /', `Disallow: ${prefix}/search`, `Disallow: ${prefix}/sign-in`];
    const sitemaps = (await sitemapsFor(deps, request)).map((url) => `Sitemap: ${url}`);
    const body = `${[...lines, ...(sitemaps.length > 0 ? ['', ...sitemaps] : [])].join('\n')}\n`;
    return reply
      .headers({
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'public, max-age=60, stale-while-revalidate=600',
        'x-content-type-options': 'nosniff',
      })
      .send(body);
  });
}
