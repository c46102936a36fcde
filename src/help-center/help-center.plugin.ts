import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.js';
import { setUpArea } from '../http/area.js';
import { articleFeedbackRoutes } from './article-feedback/article-feedback.routes.js';
import { articleRoutes } from './articles/article.routes.js';
import { collectionRoutes } from './collections/collection.routes.js';
import { HelpCenterErrorSchema, renderHelpCenterError } from './help-center.envelope.js';
import { helpCenterRoutes } from './help-centers/help-center.routes.js';
import { tagRoutes } from './tags/tag.routes.js';

/** The help center, mounted without a version prefix. */
export function helpCenterPlugin(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    await setUpArea(app, deps, {
      name: 'helpCenter',
      title: 'Switchboard help center',
      description: 'Help centers, nested collections of articles, and tags.',
      errorSchemas: { HelpCenterError: HelpCenterErrorSchema },
      // The console's Knowledge pages call this API with the signed-in person's session cookie.
      acceptsSessions: true,
      tags: [
        { name: 'help-centers', description: 'Public knowledge bases: name, protection and page metadata.' },
        { name: 'collections', description: 'Nested collections that organise the articles of a help center.' },
        { name: 'articles', description: 'Articles: drafts, publishing, and full-text search of published articles.' },
        { name: 'tags', description: 'Labels shared by the articles of an organization.' },
      ],
      renderError: renderHelpCenterError,
    });
    // Every change the public site shows is made here: a change this process made is on its next page.
    app.addHook('onSend', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400 && request.principal) {
        await deps.sitePages.changed(request.principal.organizationId);
      }
    });
    await app.register(helpCenterRoutes(deps));
    await app.register(collectionRoutes(deps));
    await app.register(articleRoutes(deps));
    await app.register(articleFeedbackRoutes(deps));
    await app.register(tagRoutes(deps));
  };
}
