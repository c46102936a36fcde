import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { SiteContext } from './site-page.js';

const originOfUrl = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

export type SiteFormConfig = Pick<Config, 'PUBLIC_BASE_URL'>;

/**
 * A form post of another site is refused (sign-in, sign-out, votes): its `Origin` (else `Referer`),
 * when the browser sends one, must be the site's own (the address the reader used, a custom domain
 * included) or PUBLIC_BASE_URL.
 */
export function isCrossSite(request: FastifyRequest, context: SiteContext, config: SiteFormConfig): boolean {
  const { origin, referer } = request.headers;
  if (origin === undefined && referer === undefined) {
    return false;
  }
  const claimed = origin ?? (referer ? originOfUrl(referer) : undefined);
  const allowed = [originOfUrl(context.address.origin), config.PUBLIC_BASE_URL ? originOfUrl(config.PUBLIC_BASE_URL) : undefined];
  return claimed === undefined || !allowed.some((own) => own !== undefined && own.toLowerCase() === claimed.toLowerCase());
}
