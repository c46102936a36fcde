import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

const ALLOWED = 'https://shop.example.com';

describe.each(DIALECTS)('messenger panel page, config and visitor limit on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { MESSENGER_VISITORS_PER_ADDRESS: '3' } });
    acme = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const admin = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
    harness.app.inject({ method, url, headers: acme.headers, ...(payload ? { payload } : {}) });
  const helpCenter = async (name: string, widget?: object) => {
    const created = await admin('POST', '/help-centers', { name });
    expect(created.statusCode, created.body).toBe(201);
    const { _id: id, slug } = created.json().data as { _id: string; slug: string };
    if (widget) {
      const set = await admin('PATCH', `/help-centers/${id}`, { widget });
      expect(set.statusCode, set.body).toBe(200);
    }
    return { id, slug };
  };

  it("serves the contract's panel page, framable only by the allowed origins", async () => {
    const { slug } = await helpCenter('Panel <Help> & Co', {
      enabled: true,
      allowedOrigins: [ALLOWED, 'http://localhost:8080'],
    });
    const page = await harness.app.inject({ url: `/widget/${slug}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toBe(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width,initial-scale=1"/>' +
        '<title>Panel &lt;Help> &amp; Co support</title><link rel="stylesheet" href="/widget-assets/panel.css"/></head>' +
        `<body><div id="switchboard-panel" data-help-center="${slug}" data-api="/widget/${slug}/api"></div>` +
        '<script type="module" src="/widget-assets/panel.js"></script></body></html>',
    );
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
        `base-uri 'none'; form-action 'none'; frame-ancestors ${ALLOWED} http://localhost:8080`,
    );
    expect(page.headers['x-frame-options']).toBeUndefined();
  });

  it('frames nowhere without allowed origins, and is a small 404 page when unknown or disabled', async () => {
    const open = await helpCenter('Panel Nowhere', { enabled: true });
    const page = await harness.app.inject({ url: `/widget/${open.slug}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/; frame-ancestors 'none'$/);

    const disabled = await helpCenter('Panel Disabled', { enabled: false, allowedOrigins: [ALLOWED] });
    const never = await helpCenter('Panel Never');
    for (const slug of [disabled.slug, never.slug, 'no-such-help-center']) {
      const missing = await harness.app.inject({ url: `/widget/${slug}/` });
      expect(missing.statusCode, slug).toBe(404);
      expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(missing.body).toContain('This messenger is not available.');
      expect(missing.body).not.toContain('switchboard-panel');
    }
  });

  it('answers the config with CORS only for an allowed origin, and its preflight likewise', async () => {
    const { slug } = await helpCenter('Config Help', {
      enabled: true,
      allowedOrigins: [ALLOWED],
      greeting: 'Welcome!',
      launcherColor: '#112233',
      position: 'left',
      identityVerificationRequired: true,
    });
    const url = `/widget/${slug}/api/config`;
    const allowed = await harness.app.inject({ url, headers: { origin: ALLOWED } });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(allowed.headers.vary).toContain('Origin');
    expect(allowed.json()).toEqual({
      helpCenter: { name: 'Config Help', slug, siteUrl: `http://localhost:3000/hc/${slug}/` },
      widget: {
        greeting: 'Welcome!',
        launcherColor: '#112233',
        position: 'left',
        identityVerificationRequired: true,
        chatAvailable: false,
        handoffAvailable: false,
      },
    });
    for (const headers of [{ origin: 'https://evil.example.com' }, { origin: 'http://shop.example.com' }, {}]) {
      const other = await harness.app.inject({ url, headers });
      expect(other.statusCode).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      expect(other.headers.vary).toContain('Origin');
    }

    const preflight = await harness.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET');
    const refused = await harness.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    });
    expect(refused.statusCode).toBe(204);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("names the help center's custom domain as its site address", async () => {
    const { id, slug } = await helpCenter('Config Domain', { enabled: true });
    expect((await admin('PATCH', `/help-centers/${id}`, { customDomain: 'help.acme-config.test' })).statusCode).toBe(200);
    const config = await harness.app.inject({ url: `/widget/${slug}/api/config` });
    expect(config.json().helpCenter.siteUrl).toBe('http://help.acme-config.test/');
  });

  it('limits new visitors per client address: 429 rate_limited with retry-after, nothing written', async () => {
    const { slug } = await helpCenter('Limited Help', { enabled: true });
    const create = (remoteAddress: string) =>
      harness.app.inject({ method: 'POST', url: `/widget/${slug}/api/visitors`, remoteAddress });
    for (let index = 0; index < 3; index++) {
      expect((await create('203.0.113.7')).statusCode).toBe(201);
    }
    const count = async () =>
      Number(
        (
          await harness.db
            .selectFrom('messenger_visitors')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const limited = await create('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect(await count()).toBe(before);
    // Another address has its own budget.
    expect((await create('203.0.113.8')).statusCode).toBe(201);
  });
});
