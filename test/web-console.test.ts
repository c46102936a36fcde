import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebClientTypes, WEB_CLIENTS } from '../scripts/web-client-types.js';
import { parseConfig } from '../src/config.js';
import { CONSOLE_BUILD_DIR, withConsoleMcpReturn } from '../src/web-console/console.plugin.js';
import { buildTestApp, type TestApp } from './harness.js';

/** The budget for the first load of /app/ on a cold cache. */
const FIRST_LOAD_JS_BUDGET_BYTES = 300 * 1024;

describe('the web console at /app/', () => {
  let harness: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    harness = await buildTestApp('sqlite');
    app = harness.app;
  });
  afterAll(async () => harness?.close());

  const page = readFileSync(join(CONSOLE_BUILD_DIR, 'index.html'), 'utf8');
  const entryScripts = [...page.matchAll(/<script[^>]+src="(\/app\/assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');
  const preloads = [...page.matchAll(/<link rel="modulepreload"[^>]+href="(\/app\/assets\/[^"]+\.js)"/g)].map(
    (match) => match[1] ?? '',
  );

  it('serves the page for /app/ and for any console path, revalidated, under a CSP forbidding inline scripts', async () => {
    for (const url of ['/app/', '/app', '/app/tickets/01JABCDEF', '/app/sign-in?redirect=%2F']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
    }
    // The page itself holds no inline script.
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('serves hashed assets precompressed, cached for a year; a missing one is a 404, not the page', async () => {
    const [script] = entryScripts;
    expect(script).toBeDefined();
    const brotli = await app.inject({ method: 'GET', url: script ?? '', headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    const gzip = await app.inject({ method: 'GET', url: script ?? '', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ method: 'GET', url: script ?? '' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBe(statSync(join(CONSOLE_BUILD_DIR, (script ?? '').replace('/app/', ''))).size);

    const missing = await app.inject({ method: 'GET', url: '/app/assets/index-00000000.js' });
    expect(missing.statusCode).toBe(404);
    const write = await app.inject({ method: 'POST', url: '/app/tickets' });
    expect(write.statusCode).toBe(404);
  });

  it("sends an MCP authorization back to the console's page by default, when the console is built and no page is set", () => {
    const config = parseConfig({ PUBLIC_BASE_URL: 'https://desk.example.com/' });
    expect(withConsoleMcpReturn(config).MCP_OAUTH_RETURN_URL).toBe('https://desk.example.com/app/agents/mcp-connected');
    const own = { ...config, MCP_OAUTH_RETURN_URL: 'https://intranet.example.com/done' };
    expect(withConsoleMcpReturn(own).MCP_OAUTH_RETURN_URL).toBe('https://intranet.example.com/done');
    expect(withConsoleMcpReturn(config, join(CONSOLE_BUILD_DIR, 'no-such-build/')).MCP_OAUTH_RETURN_URL).toBeUndefined();
  });

  it('loads under 300 kB of JavaScript gzipped on a cold cache', () => {
    const files = new Set([...entryScripts, ...preloads]);
    const gzipped = [...files].reduce(
      (total, file) => total + gzipSync(readFileSync(join(CONSOLE_BUILD_DIR, file.replace('/app/', '')))).length,
      0,
    );
    expect(files.size).toBeGreaterThan(0);
    expect(gzipped).toBeLessThan(FIRST_LOAD_JS_BUDGET_BYTES);
  });
});

describe("the console's typed API client", () => {
  it.each(WEB_CLIENTS)(
    '$file is generated from the committed $document (npm run web:types after npm run openapi:export)',
    async ({ document, file }) => {
      expect(readFileSync(file, 'utf8')).toBe(await generateWebClientTypes(document));
    },
  );
});
