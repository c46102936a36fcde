import swagger from '@fastify/swagger';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicBaseUrl } from '../../config.js';
import type { AppDeps } from '../../deps.js';
import { replyWithError } from '../../http/area.js';
import { AppError } from '../../lib/errors.js';
import { MessengerErrorSchema, renderMessengerError } from './messenger.errors.js';
import { messengerApiRoutes } from './messenger.routes.js';
import { HelpCenterSlugParamsSchema } from './messenger.schemas.js';
import { messengerConversationRoutes } from './messenger-conversation.routes.js';
import { messengerFileRoutes } from './messenger-files.routes.js';
import { createMessengerLiveHub } from './messenger-live.hub.js';
import { notFoundPage, panelPage } from './messenger-panel.js';
import { findEnabledWidget } from './messenger-widget.js';

/**
 * The messenger channel, mounted at `/widget`: the panel's page for the host page's iframe at
 * `/widget/{slug}/` and its JSON API at `/widget/{slug}/api/…`, authenticated by visitor tokens,
 * never API keys. Its own OpenAPI document (`/docs/messenger.json`) and error shape.
 */
export function messengerPlugin(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Switchboard messenger',
          description:
            "The API of the messenger's panel, under /widget/{slug}/api: the widget's settings, visitors (anonymous, or verified by the host's signed identity token), and the help center's articles. Errors are {error: {code, message}}.",
          version: '1.0.0',
        },
        tags: [{ name: 'messenger', description: 'The panel of the embeddable messenger.' }],
        servers: [{ url: publicBaseUrl(deps.config, 'helpCenter') }],
        components: {
          securitySchemes: {
            visitorToken: { type: 'http', scheme: 'bearer', description: 'A visitor token of POST /visitors or /identify' },
          },
          // biome-ignore lint/suspicious/noExplicitAny: TypeBox schemas are plain JSON Schema objects
          schemas: { MessengerError: MessengerErrorSchema as any },
        },
      },
    });
    deps.docs.set('messenger', () => app.swagger());
    app.setErrorHandler((error, request, reply) => replyWithError(renderMessengerError, error, request, reply));
    app.setNotFoundHandler(async (request) => {
      throw AppError.notFound(`Cannot ${request.method} ${request.url.split('?')[0]}`);
    });

    app.get(
      '/:slug/',
      { config: { public: true }, schema: { hide: true, params: HelpCenterSlugParamsSchema } },
      async (request, reply) => {
        const helpCenter = await findEnabledWidget(deps.db, request.params.slug);
        const page = helpCenter ? panelPage(helpCenter) : notFoundPage();
        return reply
          .code(helpCenter ? 200 : 404)
          .headers(page.headers)
          .send(page.body);
      },
    );

    const live = createMessengerLiveHub({
      db: deps.db,
      config: deps.config,
      log: deps.log,
      signal: deps.eventSignal,
      clock: deps.clock,
    });
    app.addHook('onClose', () => live.close());
    await app.register(messengerConversationRoutes(deps, live));
    await app.register(messengerFileRoutes(deps));
    await app.register(
      messengerApiRoutes({
        db: deps.db,
        clock: deps.clock,
        ids: deps.ids,
        secretKey: deps.secretKey,
        attempts: deps.limits.attempts,
        config: deps.config,
        publicBaseUrl: deps.config.PUBLIC_BASE_URL,
      }),
    );
  };
}
