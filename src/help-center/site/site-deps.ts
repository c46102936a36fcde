import type { FastifyRequest } from 'fastify';
import type { SiteDeps } from './site.routes.js';
import type { SiteHelpCenter } from './site.service.js';
import { contactViewerOf, type SiteSignInDeps } from './site-sign-in.routes.js';

/** Scheme and host the reader used (behind a proxy, as TRUST_PROXY lets the app read them). */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The site as one process serves it: readers are anonymous until they sign in (`hc_session`); pages under `/hc/{slug}`. */
export function siteDepsOf(deps: SiteSignInDeps): SiteDeps {
  return {
    db: deps.db,
    viewerOf: contactViewerOf(deps),
    addressOf: (request: FastifyRequest, helpCenter: SiteHelpCenter) => ({
      origin: originOf(request),
      base: `/hc/${helpCenter.slug}`,
    }),
  };
}
