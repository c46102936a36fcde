import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { makeSiteFixture, type SiteFixture, textsOf } from '../../../test/help-center-site.js';

const ETAG = /^"[\w-]{32}"$/;

/** Pages answered from memory, validators, Cache-Control, and what makes the cache forget (in this process). */
describe.each(DIALECTS)('the public site cache on %s', (dialect) => {
  let harness: TestApp;
  let site: SiteFixture;
  const get = (url: string, headers: Record<string, string> = {}) => harness.app.inject({ method: 'GET', url, headers });
  const page = (path = '/') => `/hc/${site.slug}${path}`;
  /** A change behind the API's back: no event, so a page held in memory still shows the old name. */
  const renameUnseen = (name: string) =>
    harness.db.updateTable('help_centers').set({ name }).where('id', '=', site.helpCenterId).execute();
  const renameThroughApi = async (name: string) => {
    const response = await site.call('PATCH', `/help-centers/${site.helpCenterId}`, { name });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { EVENT_WATCH_INTERVAL_MS: '20' } });
    site = await makeSiteFixture(harness, `Acme Help ${dialect}`);
  });
  afterAll(() => harness?.close());

  it('gives every page a strong ETag, Last-Modified, a public Cache-Control and Vary: Cookie', async () => {
    for (const path of ['/', `/collections/${site.billing.uid}-billing`, `/articles/${site.refunds.slug}`]) {
      const response = await get(page(path));
      expect(response.statusCode, path).toBe(200);
      expect(response.headers.etag, path).toMatch(ETAG);
      expect(response.headers['last-modified'], path).toBe(new Date('2026-01-15T09:00:00Z').toUTCString());
      expect(response.headers['cache-control'], path).toBe('public, max-age=60, stale-while-revalidate=300');
      expect(response.headers.vary, path).toBe('Cookie');
      expect(response.headers['content-security-policy'], path).toContain("default-src 'none'");
    }
    const search = await get(page('/search?q=refunds'));
    expect(search.headers['cache-control']).toBe('public, max-age=30');
    expect(search.headers.etag).toMatch(ETAG);
    const refused = await get(page('/search?q=ab%00cd'));
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['cache-control']).toBe('private, no-store');
    const missing = await get(page('/articles/999999-nothing'));
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
  });

  it('answers a conditional request with 304 from memory, If-None-Match before If-Modified-Since', async () => {
    const first = await get(page(`/articles/${site.install.slug}`));
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    await renameUnseen('Renamed behind the cache');
    for (const ifNoneMatch of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const response = await get(page(`/articles/${site.install.slug}`), { 'if-none-match': ifNoneMatch });
      expect(response.statusCode, ifNoneMatch).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['last-modified']).toBe(lastModified);
      expect(response.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
    }
    expect((await get(page(`/articles/${site.install.slug}`), { 'if-modified-since': lastModified })).statusCode).toBe(304);
    const later = new Date(Date.parse(lastModified) + 3_600_000).toUTCString();
    expect((await get(page(`/articles/${site.install.slug}`), { 'if-modified-since': later })).statusCode).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const modified = await get(page(`/articles/${site.install.slug}`), { 'if-modified-since': earlier });
    expect(modified.statusCode).toBe(200);
    // Served from memory: the name changed behind the cache's back is not on it.
    expect(modified.body).toContain(`Acme Help ${dialect}`);
    const otherTag = await get(page(`/articles/${site.install.slug}`), { 'if-none-match': '"nope"', 'if-modified-since': later });
    expect(otherTag.statusCode).toBe(200);
    expect((await get(page(`/articles/${site.install.slug}`), { 'if-modified-since': 'yesterday' })).statusCode).toBe(200);

    await renameThroughApi(`Acme Help ${dialect}`);
    const fresh = await get(page(`/articles/${site.install.slug}`), { 'if-none-match': etag });
    // Same name again, but the page was rendered anew and says the same thing: the same strong tag.
    expect(fresh.statusCode).toBe(304);
    await renameThroughApi(`Acme Support ${dialect}`);
    const renamed = await get(page(`/articles/${site.install.slug}`), { 'if-none-match': etag });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.headers.etag).not.toBe(etag);
    expect(renamed.body).toContain(`Acme Support ${dialect}`);
    await renameThroughApi(`Acme Help ${dialect}`);
  });

  it('keys pages by the query that changes them and ignores any other parameter', async () => {
    const plain = await get(page(`/articles/${site.refunds.slug}`));
    await renameUnseen('Renamed behind the cache');
    const tracked = await get(page(`/articles/${site.refunds.slug}?utm_source=mail`));
    expect(tracked.headers.etag).toBe(plain.headers.etag);
    const voted = await get(page(`/articles/${site.refunds.slug}?feedback=yes`));
    expect(voted.body).toContain('Renamed behind the cache');
    await renameThroughApi(`Acme Help ${dialect}`);
  });

  it('dates a page by the latest change it shows: its article, or a count that moved', async () => {
    harness.clock.set('2026-02-01T10:00:00.000Z');
    const article = await site.publish(site.billing._id, { title: 'Invoices', contentHtml: '<p>Monthly.</p>' });
    const shown = await get(page(`/articles/${article.slug}`));
    expect(shown.headers['last-modified']).toBe('Sun, 01 Feb 2026 10:00:00 GMT');
    const home = await get(page('/'));
    expect(home.headers['last-modified']).toBe('Sun, 01 Feb 2026 10:00:00 GMT');
    const install = await get(page(`/articles/${site.install.slug}`));
    expect(Date.parse(String(install.headers['last-modified']))).toBeLessThanOrEqual(Date.parse('2026-02-01T10:00:00Z'));
  });

  it('shows a publish, an unpublish, a renamed article, collection changes and a renamed help center on the next request', async () => {
    const collectionPage = page(`/collections/${site.gettingStarted.uid}-getting-started`);
    expect(textsOf((await get(collectionPage)).body, 'h2')).not.toContain('Upgrading');
    const upgrading = await site.publish(site.gettingStarted._id, { title: 'Upgrading', contentHtml: '<p>Click.</p>' });
    expect((await get(collectionPage)).body).toContain('Upgrading');
    expect((await get(page(`/articles/${upgrading.slug}`))).statusCode).toBe(200);

    expect((await site.call('POST', `/articles/${upgrading._id}/unpublish`)).statusCode).toBe(200);
    expect((await get(page(`/articles/${upgrading.slug}`))).statusCode).toBe(404);
    expect((await get(collectionPage)).body).not.toContain('Upgrading');

    const before = page(`/articles/${site.install.slug}`);
    expect((await get(before)).statusCode).toBe(200);
    const renamed = await site.call('PATCH', `/articles/${site.install._id}`, { title: 'Installing the app' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const moved = await get(before);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(page(`/articles/${site.install.uid}-installing-the-app`));
    expect((await get(page('/'))).body).toContain('Getting started');

    expect((await site.call('PATCH', `/collections/${site.gettingStarted._id}`, { name: 'First steps' })).statusCode).toBe(200);
    expect(textsOf((await get(page('/'))).body, 'h2')).toContain('First steps');
    const created = await site.call('POST', '/collections', { helpCenterId: site.helpCenterId, name: 'Security' });
    expect(created.statusCode).toBe(201);
    const withChild = await site.call('POST', '/collections', {
      helpCenterId: site.helpCenterId,
      parentId: site.billing._id,
      name: 'Taxes',
    });
    expect(withChild.statusCode).toBe(201);
    const billingPage = page(`/collections/${site.billing.uid}-billing`);
    expect((await get(billingPage)).body).toContain('Taxes');
    expect((await site.call('DELETE', `/collections/${withChild.json().data._id}`)).statusCode).toBe(200);
    expect((await get(billingPage)).body).not.toContain('Taxes');

    await renameThroughApi('Acme Knowledge');
    expect(textsOf((await get(page('/'))).body, 'h1')).toEqual(['Acme Knowledge']);
    await renameThroughApi(`Acme Help ${dialect}`);
    expect(textsOf((await get(page('/'))).body, 'h1')).toEqual([`Acme Help ${dialect}`]);
  });

  it("forgets nothing of one organization for another organization's change", async () => {
    const globex = await makeOrganization(harness);
    const theirs = await harness.app.inject({
      method: 'POST',
      url: '/help-centers',
      headers: globex.headers,
      payload: { name: `Globex Help ${dialect}` },
    });
    const article = page(`/articles/${site.refunds.slug}`);
    expect((await get(article)).statusCode).toBe(200);
    await renameUnseen('Renamed behind the cache');
    const renamed = await harness.app.inject({
      method: 'PATCH',
      url: `/help-centers/${theirs.json().data._id}`,
      headers: globex.headers,
      payload: { name: 'Globex Knowledge' },
    });
    expect(renamed.statusCode).toBe(200);
    await sleep(100);
    expect((await get(article)).body).toContain(`Acme Help ${dialect}`);
    expect((await get(`/hc/${theirs.json().data.slug}/`)).body).toContain('Globex Knowledge');
    await renameThroughApi(`Acme Help ${dialect}`);
  });

  it('answers HEAD with the headers of GET, and 304 alike', async () => {
    const got = await get(page('/'));
    const head = await harness.app.inject({ method: 'HEAD', url: page('/') });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(got.headers.etag);
    const conditional = await harness.app.inject({
      method: 'HEAD',
      url: page('/'),
      headers: { 'if-none-match': String(got.headers.etag) },
    });
    expect(conditional.statusCode).toBe(304);
  });

  it('keeps its pages through a flood of ticket events of the same organization', async () => {
    const desk = await makeTeam(harness, site.acme, { name: 'Desk', identifier: 'DESK' });
    const article = page(`/articles/${site.refunds.slug}`);
    expect((await get(article)).statusCode).toBe(200);
    await renameUnseen('Renamed behind the cache');
    let fromMemory = 0;
    const started = Date.now();
    for (let n = 0; n < 30; n += 1) {
      const ticket = await site.call('POST', '/v1/tickets', {
        title: `Printer ${n}`,
        requestorEmail: 'pat@customer.test',
        teamId: desk.teamId,
      });
      expect(ticket.statusCode, ticket.body).toBe(201);
      await sleep(10);
      fromMemory += (await get(article)).body.includes(`Acme Help ${dialect}`) ? 1 : 0;
    }
    // Long enough for the signal to have said "acme's log grew" many times over.
    expect(Date.now() - started).toBeGreaterThan(300);
    await sleep(100);
    expect((await get(article)).body).toContain(`Acme Help ${dialect}`);
    expect(fromMemory).toBe(30);
    await renameThroughApi(`Acme Help ${dialect}`);
    expect((await get(article)).body).not.toContain('Renamed behind the cache');
  });
});
