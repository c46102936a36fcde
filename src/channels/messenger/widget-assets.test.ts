import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { WIDGET_BUILD_DIR } from './widget-assets.js';
import { widgetAssetsPlugin } from './widget-assets.plugin.js';

const built = (file: string) => readFileSync(join(WIDGET_BUILD_DIR, file));

describe('the messenger’s built files', () => {
  let harness: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    harness = await buildTestApp('sqlite');
    app = harness.app;
  });
  afterAll(async () => harness?.close());

  it.each([
    ['/widget.js', 'loader.js', /^text\/javascript/],
    ['/widget-assets/panel.js', 'panel.js', /^text\/javascript/],
    ['/widget-assets/panel.css', 'panel.css', /^text\/css/],
  ])('serves %s from dist/widget/%s, cached five minutes with an ETag', async (url, file, type) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(type);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers.vary).toBe('accept-encoding');
    expect(response.headers['content-encoding']).toBeUndefined();
    // A script tag needs no CORS: nothing invites other origins to read it.
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.rawPayload.equals(built(file))).toBe(true);
  });

  it('answers gzipped when the client takes gzip, and plain when it refuses it', async () => {
    const gzipped = await app.inject({ method: 'GET', url: '/widget.js', headers: { 'accept-encoding': 'br, gzip;q=0.8' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).equals(built('loader.js'))).toBe(true);
    expect(gzipped.rawPayload.length).toBeLessThan(built('loader.js').length);
    const refused = await app.inject({ method: 'GET', url: '/widget.js', headers: { 'accept-encoding': 'gzip;q=0, br' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.rawPayload.equals(built('loader.js'))).toBe(true);
  });

  it('answers 304 without a body when the ETag still matches, and the file when it does not', async () => {
    const first = await app.inject({ method: 'GET', url: '/widget-assets/panel.js' });
    const etag = String(first.headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"0000000000000000", ${etag}`, '*']) {
      const again = await app.inject({
        method: 'GET',
        url: '/widget-assets/panel.js',
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    const stale = await app.inject({
      method: 'GET',
      url: '/widget-assets/panel.js',
      headers: { 'if-none-match': '"0000000000000000"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(built('panel.js'))).toBe(true);
    // Each file has its own tag.
    const css = await app.inject({ method: 'GET', url: '/widget-assets/panel.css' });
    expect(css.headers.etag).not.toBe(etag);
  });

  it('answers HEAD with the headers only, and 404 for any other file under /widget-assets/', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/widget.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toMatch(/^"/);
    expect(head.rawPayload.length).toBe(0);
    for (const url of ['/widget-assets/loader.js', '/widget-assets/panel.js.map', '/widget-assets/', '/widget-assets/a/b.js']) {
      const missing = await app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body).toBe('Not found\n');
    }
  });
});

describe('the messenger’s files without a build', () => {
  it('answer 503 saying how to build them', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'switchboard-widget-'));
    const app = Fastify();
    try {
      await app.register(widgetAssetsPlugin({ buildDir: empty }));
      const response = await app.inject({ method: 'GET', url: '/widget.js' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('npm run build:widget');
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
