import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { createAttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import type { SiteDeps } from './site.routes.js';
import { ANONYMOUS, type SiteHelpCenter } from './site.service.js';

/** Scheme and host the reader used (behind a proxy, as TRUST_PROXY lets the app read them). */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The site as one app serves it: readers are anonymous until they sign in; pages under `/hc/{slug}`. */
export function siteDepsOf(deps: AppDeps): SiteDeps {
  return {
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    storage: createAttachmentStorage(deps.config),
    attempts: deps.limits.attempts,
    viewerOf: async () => ANONYMOUS,
    addressOf: (request: FastifyRequest, helpCenter: SiteHelpCenter) => ({
      origin: originOf(request),
      base: `/hc/${helpCenter.slug}`,
    }),
  };
}
