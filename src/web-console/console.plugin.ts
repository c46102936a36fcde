import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Config, publicBaseUrl } from '../config.js';
import { PROJECT_ROOT } from '../project-root.js';

/** Where `npm run build:web` writes the console. */
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL('web/dist/', PROJECT_ROOT));

/**
 * The console runs only its own bundled code: no inline script, no other origin. Inline styles are
 * allowed: Radix's dialogs and menus add a `<style>` element while open (to lock scrolling), and a
 * style cannot run code. Images may be `blob:` previews of files being attached, and `data:` for
 * pasted screenshots.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The console page an MCP authorization popup comes back to: it tells the agent's page, which opened it, and closes. */
export const CONSOLE_MCP_RETURN_PATH = '/app/agents/mcp-connected';

/**
 * Where the MCP OAuth callback sends the browser: `MCP_OAUTH_RETURN_URL` when set, else the
 * console's own page for it when the console is built (and so served at /app/), else nowhere (the
 * callback answers its result as JSON).
 */
export function withConsoleMcpReturn(config: Config, buildDir: string = CONSOLE_BUILD_DIR): Config {
  if (config.MCP_OAUTH_RETURN_URL || !existsSync(`${buildDir}index.html`)) {
    return config;
  }
  return { ...config, MCP_OAUTH_RETURN_URL: `${publicBaseUrl(config, 'platform')}${CONSOLE_MCP_RETURN_PATH}` };
}

/** Hashed file names never change content: cache them for a year. Anything else is checked each time. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function setSecurityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CONSOLE_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'same-origin');
}

/**
 * The web console at `/app/`: the built files, precompressed (`.br`, `.gz`) at build time, and the
 * single page for any other path below it, so a reload or a shared link of `/app/tickets/…` opens
 * the console, which routes it. A path naming a file that does not exist (a stale asset) is a 404.
 */
export function consolePlugin(options: { buildDir?: string } = {}) {
  const root = options.buildDir ?? CONSOLE_BUILD_DIR;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', async (_request, reply) => setSecurityHeaders(reply));

    if (!existsSync(`${root}index.html`)) {
      app.get('/*', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
        reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The web console is not built: run `npm run build:web` (npm install does it).\n'),
      );
      return;
    }

    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      preCompressed: true,
      index: false,
      wildcard: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : REVALIDATE);
      },
    });

    const sendPage = (reply: FastifyReply) => reply.header('cache-control', REVALIDATE).sendFile('index.html', root);
    app.get('/', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => sendPage(reply));
    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const isFile = /\.[a-z0-9]+$/i.test(path);
      if ((request.method !== 'GET' && request.method !== 'HEAD') || isFile) {
        return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
      }
      return sendPage(reply);
    });
  };
}
