import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { registerSitePageRoutes, type SiteDeps, sendErrorPage, sendNotFound } from './site.routes.js';
import { registerSiteActionRoutes } from './site-actions.routes.js';
import { SITE_ASSETS_PREFIX, siteAssets } from './site-assets.js';
import { answerFromCache } from './site-cache.js';
import { registerSiteFeedRoutes, type SiteFeedOptions } from './site-feeds.routes.js';
import { registerRobotsRoute } from './site-robots.routes.js';
import { CONTACT_SESSION_COOKIE, registerSiteSignInRoutes, type SiteSignInDeps } from './site-sign-in.routes.js';

const FORM = 'application/x-www-form-urlencoded';
/** The site's forms carry an email, a vote or a comment of at most 2,000 characters. */
const FORM_LIMIT_BYTES = 16 * 1024;

/** Form posts of the site's pages, as a record of their fields (the last of a repeated field). */
function acceptForms(app: FastifyInstance) {
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}

/**
 * The public help center at `/hc/{helpCenterSlug}/…`: server-rendered pages anyone may read, no
 * API key. Its own 404 page for any address below `/hc`.
 */
export function helpCenterSitePlugin(deps: SiteDeps, signIn: SiteSignInDeps, options: SiteFeedOptions = {}): FastifyPluginAsync {
  return async (app) => {
    acceptForms(app);
    // An anonymous reader's page held in memory is answered before anything is looked up.
    app.addHook('onRequest', async (request, reply) => {
      if (answerFromCache(deps.pages, request, reply, CONTACT_SESSION_COOKIE)) {
        return reply;
      }
    });
    registerSitePageRoutes(app, deps);
    registerSiteFeedRoutes(app, deps, options);
    registerSiteActionRoutes(app, deps, signIn.config);
    registerSiteSignInRoutes(app, deps, signIn);
    app.setNotFoundHandler((_request, reply) => sendNotFound(reply, null));
    app.setErrorHandler((error, request, reply) => sendErrorPage(error, request, reply));
  };
}

/** The stylesheet and script, at addresses that change with their content: cached for a year. */
export function siteAssetsPlugin(): FastifyPluginAsync {
  return async (app) => {
    const assets = siteAssets();
    for (const asset of [assets.css, assets.js]) {
      app.get(`/${asset.name}`, async (_request, reply) =>
        reply
          .headers({
            'content-type': asset.contentType,
            'cache-control': 'public, max-age=31536000, immutable',
            'x-content-type-options': 'nosniff',
          })
          .send(asset.body),
      );
    }
  };
}

/** What the site answers at the host's root: `/robots.txt`. */
export function siteRootPlugin(deps: SiteDeps): FastifyPluginAsync {
  return async (app) => {
    registerRobotsRoute(app, deps);
  };
}

export { SITE_ASSETS_PREFIX };
