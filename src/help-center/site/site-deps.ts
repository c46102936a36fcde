import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { createAttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import type { SiteDeps } from './site.routes.js';
import type { SiteHelpCenter } from './site.service.js';
import { contactViewerOf, type SiteSignInDeps } from './site-sign-in.routes.js';

/** Scheme and host the reader used (behind a proxy, as TRUST_PROXY lets the app read them). */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** What the sign-in pages need of the app. */
export function siteSignInDepsOf(deps: AppDeps): SiteSignInDeps {
  return { db: deps.db, clock: deps.clock, ids: deps.ids, attempts: deps.limits.attempts, config: deps.config };
}

/** The site as one app serves it: readers are anonymous until they sign in (`hc_session`); pages under `/hc/{slug}`. */
export function siteDepsOf(deps: AppDeps, signIn: SiteSignInDeps): SiteDeps {
  return {
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    storage: createAttachmentStorage(deps.config),
    attempts: deps.limits.attempts,
    viewerOf: contactViewerOf(signIn),
    addressOf: (request: FastifyRequest, helpCenter: SiteHelpCenter) => ({
      origin: originOf(request),
      base: `/hc/${helpCenter.slug}`,
    }),
  };
}
