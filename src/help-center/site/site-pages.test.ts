import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

const textOf = (html: string, name: string) =>
  DomUtils.findAll((element) => element.name === name, parseDocument(html).children).map((element) =>
    DomUtils.textContent(element).replace(/\s+/g, ' ').trim(),
  );

describe.each(DIALECTS)('the public help center site on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let slug: string;
  let helpCenterId: string;
  let gettingStarted: { _id: string; uid: number; slug: string };
  let billing: { _id: string; uid: number; slug: string };
  let internal: { _id: string; uid: number; slug: string };
  let refunds: { _id: string; slug: string };

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const patch = (url: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url, headers, payload });
  const get = (url: string, headers: Record<string, string> = {}) => harness.app.inject({ method: 'GET', url, headers });
  const publish = async (collectionId: string, payload: object) => {
    const created = (await post('/articles', { collectionId, ...payload })).json().data;
    expect((await post(`/articles/${created._id}/publish`)).statusCode).toBe(200);
    return created as { _id: string; uid: number; slug: string };
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const helpCenter = (
      await post('/help-centers', { name: `Acme Help ${dialect}`, meta: { description: 'Answers from the Acme team.' } })
    ).json().data;
    helpCenterId = helpCenter._id;
    slug = helpCenter.slug;
    gettingStarted = (await post('/collections', { helpCenterId, name: 'Getting started', description: 'First steps' })).json()
      .data;
    billing = (await post('/collections', { helpCenterId, name: 'Billing', icon: 'credit-card' })).json().data;
    internal = (await post('/collections', { helpCenterId, name: 'Partners', isProtected: true })).json().data;
    await publish(gettingStarted._id, {
      title: 'Install the app',
      contentHtml:
        '<h1>Overview</h1><p>Download it.</p><h2>On Windows</h2><p>Run the installer.</p><h3>Silent install</h3><p>Use /S.</p>',
    });
    refunds = await publish(billing._id, {
      title: 'Refunds',
      description: 'How refunds work',
      contentHtml: '<p>Ask within thirty days.</p>',
    });
    await publish(internal._id, { title: 'Partner pricing', contentHtml: '<p>Secret discount tiers.</p>' });
    await post('/articles', { collectionId: billing._id, title: 'Draft about invoices', contentHtml: '<p>Not yet.</p>' });
  });
  afterAll(() => harness.close());

  it('serves the home page without a key: name, description, search box, top-level collections with counts', async () => {
    const response = await get(`/hc/${slug}/`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(textOf(response.body, 'h1')).toEqual([`Acme Help ${dialect}`]);
    expect(response.body).toContain('Answers from the Acme team.');
    expect(response.body).toContain('name="q"');
    expect(textOf(response.body, 'h2')).toEqual(['Getting started', 'Billing']);
    expect(response.body).toContain('1 article');
    expect(response.body).not.toContain('Partners');
  });

  it('redirects the address without its final slash', async () => {
    const response = await get(`/hc/${slug}`);
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(`/hc/${slug}/`);
  });

  it('shows an article: published HTML, one h1, a table of contents, breadcrumbs and the feedback form', async () => {
    const response = await get(`/hc/${slug}/articles/${refunds.slug}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(textOf(response.body, 'h1')).toEqual(['Refunds']);
    expect(response.body).toContain('Ask within thirty days.');
    expect(response.body).toContain('Was this article helpful?');
    expect(response.body).toContain(`href="/hc/${slug}/collections/${billing.uid}-billing"`);
  });

  it('builds the table of contents from the headings, a body h1 turned into a section', async () => {
    const install = (await get(`/hc/${slug}/search?q=installer`)).body;
    const href = /href="(\/hc\/[^"]+\/articles\/[^"]+)"/.exec(install.split('<main')[1] ?? '')?.[1];
    expect(href).toBeDefined();
    const response = await get(href ?? '');
    expect(textOf(response.body, 'h1')).toEqual(['Install the app']);
    expect(response.body).toContain('<h2 id="overview">Overview</h2>');
    expect(response.body).toContain('<h3 id="silent-install">Silent install</h3>');
    expect(response.body).toContain('href="#on-windows"');
  });

  it('moves a renamed article with a 301 from its old address, and hides it once unpublished', async () => {
    const article = await publish(gettingStarted._id, { title: 'Old name', contentHtml: '<p>Body.</p>' });
    expect((await patch(`/articles/${article._id}`, { title: 'New name' })).statusCode).toBe(200);
    await post(`/articles/${article._id}/publish`);
    const moved = await get(`/hc/${slug}/articles/${article.slug}`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/hc/${slug}/articles/${article.uid}-new-name`);
    expect((await get(`/hc/${slug}/articles/${article.uid}-new-name`)).statusCode).toBe(200);
    await post(`/articles/${article._id}/unpublish`);
    expect((await get(`/hc/${slug}/articles/${article.uid}-new-name`)).statusCode).toBe(404);
  });

  it('shows a collection with breadcrumbs, its sub-collections and published articles only', async () => {
    const plans = (await post('/collections', { helpCenterId, name: 'Plans', parentId: billing._id })).json().data;
    await publish(plans._id, { title: 'Compare plans', contentHtml: '<p>Plans.</p>' });
    const response = await get(`/hc/${slug}/collections/${billing.uid}-billing`);
    expect(response.statusCode, response.body).toBe(200);
    expect(textOf(response.body, 'h1')).toEqual(['Billing']);
    expect(textOf(response.body, 'h3')).toEqual(['Plans']);
    expect(response.body).toContain('Refunds');
    expect(response.body).not.toContain('Draft about invoices');
    const child = await get(`/hc/${slug}/collections/${plans.uid}-plans`);
    expect(textOf(child.body, 'nav')[0]).toContain('Billing');
    const bare = await get(`/hc/${slug}/collections/billing`);
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe(`/hc/${slug}/collections/${billing.uid}-billing`);
  });

  it('sends anonymous readers of a protected help center to its sign-in page', async () => {
    const closed = (await post('/help-centers', { name: `Closed ${dialect}`, isProtected: true })).json().data;
    const response = await get(`/hc/${closed.slug}/`);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/hc/${closed.slug}/sign-in?next=${encodeURIComponent(`/hc/${closed.slug}/`)}`);
  });

  it('answers the themed 404 for an unknown slug, a draft, a protected article and path tricks', async () => {
    for (const url of [
      '/hc/no-such-center/',
      `/hc/${slug}/articles/999999-nothing`,
      `/hc/${slug}/articles/..%2F..%2Fetc%2Fpasswd`,
      `/hc/${slug}/collections/${internal.uid}-partners`,
      `/hc/${slug}/nothing-here`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(textOf(response.body, 'h1'), url).toEqual(['Page not found']);
    }
  });

  it('searches published, public articles with highlighted, escaped results', async () => {
    const response = await get(`/hc/${slug}/search?q=${encodeURIComponent('refunds')}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('<mark>');
    const hidden = await get(`/hc/${slug}/search?q=discount`);
    expect(hidden.body).not.toContain('Partner pricing');
    expect(hidden.body).toContain('No articles match');
    const script = await get(`/hc/${slug}/search?q=${encodeURIComponent('<script>alert("x")</script>')}`);
    const scripts = DomUtils.findAll((element) => element.name === 'script', parseDocument(script.body).children);
    expect(scripts.map((element) => DomUtils.textContent(element)).join('')).not.toContain('alert');
    expect(textOf(script.body, 'strong')).toEqual(['<script>alert("x")</script>']);
    expect(textOf(script.body, 'title')[0]).toContain('<script>alert("x")</script>');
    const long = await get(`/hc/${slug}/search?q=${'a'.repeat(10_000)}`);
    expect(long.statusCode).toBe(400);
    expect(long.body.length).toBeLessThan(20_000);
    const nul = await get(`/hc/${slug}/search?q=ab%00cd`);
    expect(nul.statusCode).toBe(400);
  });

  it('keeps another organization out: its key changes nothing and its slug is not ours', async () => {
    expect(globex.headers).toBeDefined();
    const other = (await post('/help-centers', { name: `Globex Help ${dialect}` }, globex.headers)).json().data;
    const response = await get(`/hc/${other.slug}/articles/${refunds.slug}`);
    expect(response.statusCode).toBe(404);
    expect(helpCenterId).toBeDefined();
    expect(patch).toBeDefined();
  });
});
