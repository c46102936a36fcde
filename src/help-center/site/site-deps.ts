import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { createAttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { customDomainOf } from './custom-domains.js';
import type { SiteDeps } from './site.routes.js';
import type { SiteHelpCenter } from './site.service.js';
import type { SiteAddress } from './site-address.js';
import { contactViewerOf, type SiteSignInDeps } from './site-sign-in.routes.js';

/** Scheme and host the reader used (behind a proxy, as TRUST_PROXY lets the app read them). */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * Where a help center's pages are for this request: at the root of its custom domain when the
 * request came to it, else under `/hc/{slug}` on the host the reader used. Custom domains are
 * recognised by the `Host` header alone: a proxy in front must pass it on as the reader sent it.
 * A help center with a custom domain names that domain in canonical URLs and sitemaps wherever it
 * is read, with the scheme of PUBLIC_BASE_URL when set (a TLS proxy in front may hide it).
 */
export function siteAddressOf(
  request: FastifyRequest,
  helpCenter: Pick<SiteHelpCenter, 'slug' | 'customDomain'>,
  options: { publicBaseUrl?: string } = {},
): SiteAddress {
  const onCustomDomain = customDomainOf(request.raw) !== undefined;
  // On a custom domain, the `Host` the request was routed by (never an X-Forwarded-Host that names another).
  const origin = onCustomDomain ? `${request.protocol}://${request.raw.headers.host}` : originOf(request);
  const address = { origin, base: onCustomDomain ? '' : `/hc/${helpCenter.slug}` };
  if (!helpCenter.customDomain) {
    return address;
  }
  const scheme = options.publicBaseUrl ? new URL(options.publicBaseUrl).protocol.slice(0, -1) : request.protocol;
  const canonical = { origin: `${scheme}://${helpCenter.customDomain}`, base: '' };
  return canonical.origin === address.origin && address.base === '' ? address : { ...address, canonical };
}

/** What the sign-in pages need of the app. */
export function siteSignInDepsOf(deps: AppDeps): SiteSignInDeps {
  return { db: deps.db, clock: deps.clock, ids: deps.ids, attempts: deps.limits.attempts, config: deps.config };
}

/**
 * The site as one app serves it: readers are anonymous until they sign in (`hc_session`); pages
 * under `/hc/{slug}`, or at the root of the help center's custom domain.
 */
export function siteDepsOf(deps: AppDeps, signIn: SiteSignInDeps): SiteDeps {
  return {
    db: deps.db,
    pages: deps.sitePages,
    clock: deps.clock,
    ids: deps.ids,
    storage: createAttachmentStorage(deps.config),
    attempts: deps.limits.attempts,
    viewerOf: contactViewerOf(signIn),
    addressOf: (request, helpCenter) => siteAddressOf(request, helpCenter, { publicBaseUrl: deps.config.PUBLIC_BASE_URL }),
  };
}
