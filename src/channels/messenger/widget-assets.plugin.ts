import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptsGzip,
  matchesEtag,
  readWidgetAssets,
  WIDGET_BUILD_DIR,
  type WidgetAsset,
  type WidgetFile,
} from './widget-assets.js';

/**
 * Five minutes: the loader's address is fixed in every host page (it cannot carry a hash), so a
 * release reaches visitors within minutes; the ETag makes each revalidation a 304.
 */
const CACHE_CONTROL = 'public, max-age=300';

/** The addresses of the built files: the loader host pages embed, and the panel's script and stylesheet. */
const ROUTES: ReadonlyArray<[path: string, file: WidgetFile]> = [
  ['/widget.js', 'loader.js'],
  ['/widget-assets/panel.js', 'panel.js'],
  ['/widget-assets/panel.css', 'panel.css'],
];

function send(request: FastifyRequest, reply: FastifyReply, asset: WidgetAsset) {
  reply.headers({
    'content-type': asset.contentType,
    'cache-control': CACHE_CONTROL,
    etag: asset.etag,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  });
  if (matchesEtag(request.headers['if-none-match'], asset.etag)) {
    return reply.code(304).send();
  }
  if (acceptsGzip(request.headers['accept-encoding'])) {
    return reply.header('content-encoding', 'gzip').send(asset.gzipped);
  }
  return reply.send(asset.body);
}

/**
 * The messenger's built files (issue 34), read once at start-up from `dist/widget/`: `/widget.js`
 * (the loader a host page's `<script>` fetches, so no CORS header is needed) and
 * `/widget-assets/{panel.js,panel.css}` (the panel's page links them). Without a build, each
 * answers 503 saying how to make one, as the console does.
 */
export function widgetAssetsPlugin(options: { buildDir?: string } = {}): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const assets = readWidgetAssets(options.buildDir ?? WIDGET_BUILD_DIR);
    for (const [path, file] of ROUTES) {
      app.get(path, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
        const asset = assets?.get(file);
        if (!asset) {
          return reply
            .code(503)
            .type('text/plain; charset=utf-8')
            .send('The messenger is not built: run `npm run build:widget` (npm install does it).\n');
        }
        return send(request, reply, asset);
      });
    }
    // Any other file asked for here is missing, plainly: not the help center's API-key check.
    app.get('/widget-assets/*', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply.code(404).type('text/plain; charset=utf-8').send('Not found\n'),
    );
  };
}
