import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { SiteDeps } from './site.routes.js';
import { ANONYMOUS, type SiteHelpCenter } from './site.service.js';
import type { SitePageCache } from './site-page-cache.js';

/** Scheme and host the reader used (behind a proxy, as TRUST_PROXY lets the app read them). */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The site as one process serves it: readers are anonymous until they sign in; pages under `/hc/{slug}`. */
export function siteDepsOf(db: Kysely<DB>, pages: SitePageCache): SiteDeps {
  return {
    db,
    pages,
    viewerOf: async () => ANONYMOUS,
    addressOf: (request: FastifyRequest, helpCenter: SiteHelpCenter) => ({
      origin: originOf(request),
      base: `/hc/${helpCenter.slug}`,
    }),
  };
}
