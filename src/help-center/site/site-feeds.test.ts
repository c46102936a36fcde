import Fastify from 'fastify';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { depsOfApp } from '../../app.js';
import { helpCenterSitePlugin } from './site.plugin.js';
import { siteDepsOf, siteSignInDepsOf } from './site-deps.js';
import { escapeXml } from './sitemap.js';

type Created = { _id: string; uid: number; slug: string };

/** The `<loc>` and `<lastmod>` of each `<url>` or `<sitemap>` of a sitemap document. */
function sitemapEntries(xml: string) {
  const document = parseDocument(xml, { xmlMode: true });
  const root = DomUtils.findOne((element) => element.name === 'urlset' || element.name === 'sitemapindex', document.children);
  const entries = DomUtils.findAll((element) => element.name === 'url' || element.name === 'sitemap', document.children).map(
    (element) => ({
      loc: DomUtils.textContent(DomUtils.findOne((child) => child.name === 'loc', element.children) ?? element),
      lastmod: DomUtils.findOne((child) => child.name === 'lastmod', element.children)
        ? DomUtils.textContent(DomUtils.findOne((child) => child.name === 'lastmod', element.children) ?? element)
        : null,
    }),
  );
  return { root: root?.name, entries };
}

describe('escapeXml', () => {
  it('escapes markup characters and drops what XML cannot hold', () => {
    expect(escapeXml(`a&b<c>d"e'f\u0000g\u000bh`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;fgh');
  });
});

describe.each(DIALECTS)('sitemap, llms.txt and Markdown articles on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let slug: string;
  let helpCenterId: string;
  let billing: Created;
  let nested: Created;
  let partners: Created;
  let refunds: Created;
  let install: Created;
  let secret: Created;
  let draft: Created;

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const patch = (url: string, payload: object) => harness.app.inject({ method: 'PATCH', url, headers: acme.headers, payload });
  const get = (url: string, headers: Record<string, string> = {}) =>
    harness.app.inject({ method: 'GET', url, headers: { host: 'help.test', ...headers } });
  const publish = async (collectionId: string, payload: object) => {
    const created = (await post('/articles', { collectionId, ...payload })).json().data;
    expect((await post(`/articles/${created._id}/publish`)).statusCode).toBe(200);
    return created as Created;
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    const helpCenter = (
      await post('/help-centers', { name: `Acme & Co ${dialect}`, meta: { description: 'Answers *fast* <here>' } })
    ).json().data;
    helpCenterId = helpCenter._id;
    slug = helpCenter.slug;
    billing = (await post('/collections', { helpCenterId, name: 'Billing [all]' })).json().data;
    nested = (await post('/collections', { helpCenterId, name: 'Invoices', parentId: billing._id })).json().data;
    partners = (await post('/collections', { helpCenterId, name: 'Partners', isProtected: true })).json().data;
    refunds = await publish(billing._id, {
      title: 'Refunds [beta] & *more*',
      description: 'How refunds work',
      contentHtml: '<h2>When</h2><p>Ask within <strong>thirty</strong> days &amp; keep the receipt.</p>',
    });
    install = await publish(nested._id, { title: 'Read an invoice', contentHtml: '<p>Totals at the bottom.</p>' });
    secret = await publish(partners._id, { title: 'Partner pricing', contentHtml: '<p>Secret discount tiers.</p>' });
    draft = (
      await post('/articles', { collectionId: billing._id, title: 'Draft invoices', contentHtml: '<p>Not yet.</p>' })
    ).json().data;
  });
  afterAll(() => harness.close());

  it('lists the home page, public collections and published articles with lastmod and absolute URLs', async () => {
    const response = await get(`/hc/${slug}/sitemap.xml`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const { root, entries } = sitemapEntries(response.body);
    expect(root).toBe('urlset');
    const base = `http://help.test/hc/${slug}`;
    expect(entries.map((entry) => entry.loc)).toEqual([
      `${base}/`,
      `${base}/collections/${billing.uid}-billing-all`,
      `${base}/collections/${nested.uid}-invoices`,
      `${base}/articles/${refunds.slug}`,
      `${base}/articles/${install.slug}`,
    ]);
    for (const entry of entries) {
      expect(entry.lastmod, entry.loc).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(response.body).not.toContain(secret.slug);
    expect(response.body).not.toContain(draft.slug);
    expect(response.body).not.toContain(String(partners.uid));
  });

  it('escapes what the request puts in its addresses', async () => {
    const response = await get(`/hc/${slug}/sitemap.xml`, { host: "a&b'.test" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<loc>http://a&amp;b&apos;.test/hc/');
    expect(sitemapEntries(response.body).entries[0]?.loc).toBe(`http://a&b'.test/hc/${slug}/`);
  });

  it('becomes a sitemap index of sitemaps within the limit when there are more addresses', async () => {
    const small = Fastify();
    const signIn = siteSignInDepsOf(depsOfApp(harness.app));
    await small.register(helpCenterSitePlugin(siteDepsOf(depsOfApp(harness.app), signIn), signIn, { sitemapUrlLimit: 2 }), {
      prefix: '/hc',
    });
    try {
      const index = await small.inject({ url: `/hc/${slug}/sitemap.xml`, headers: { host: 'help.test' } });
      expect(index.statusCode, index.body).toBe(200);
      const { root, entries } = sitemapEntries(index.body);
      expect(root).toBe('sitemapindex');
      const base = `http://help.test/hc/${slug}`;
      expect(entries.map((entry) => entry.loc)).toEqual([1, 2, 3].map((n) => `${base}/sitemap-${n}.xml`));
      const pages = await Promise.all(
        [1, 2, 3].map((n) => small.inject({ url: `/hc/${slug}/sitemap-${n}.xml`, headers: { host: 'help.test' } })),
      );
      const locs = pages.flatMap((page) => {
        expect(page.headers['content-type']).toBe('application/xml; charset=utf-8');
        const parsed = sitemapEntries(page.body);
        expect(parsed.root).toBe('urlset');
        expect(parsed.entries.length).toBeLessThanOrEqual(2);
        return parsed.entries.map((entry) => entry.loc);
      });
      expect(locs).toEqual([
        `${base}/`,
        `${base}/collections/${billing.uid}-billing-all`,
        `${base}/collections/${nested.uid}-invoices`,
        `${base}/articles/${refunds.slug}`,
        `${base}/articles/${install.slug}`,
      ]);
      for (const url of [
        'sitemap-4.xml',
        'sitemap-0.xml',
        'sitemap-01.xml',
        'sitemap-.xml',
        'sitemap-1.xml.xml',
        'sitemap-x.xml',
      ]) {
        const response = await small.inject({ url: `/hc/${slug}/${url}` });
        expect(response.statusCode, url).toBe(404);
      }
    } finally {
      await small.close();
    }
    // Within the limit there is one sitemap and no numbered ones.
    expect((await get(`/hc/${slug}/sitemap-1.xml`)).statusCode).toBe(404);
  });

  it('lists public articles in llms.txt as links to their Markdown, by collection', async () => {
    const response = await get(`/hc/${slug}/llms.txt`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const base = `http://help.test/hc/${slug}`;
    expect(response.body).toBe(
      [
        `# Acme & Co ${dialect}`,
        '',
        // A `<` that could open a tag is written as an entity, as in all derived Markdown.
        '> Answers \\*fast\\* &lt;here>',
        '',
        '## Billing \\[all\\]',
        '',
        `- [Refunds \\[beta\\] & \\*more\\*](${base}/articles/${refunds.slug}.md): How refunds work`,
        '',
        '## Billing \\[all\\] / Invoices',
        '',
        `- [Read an invoice](${base}/articles/${install.slug}.md)`,
        '',
      ].join('\n'),
    );
  });

  it('serves each article as Markdown at its address with .md, linked from the page', async () => {
    const response = await get(`/hc/${slug}/articles/${refunds.slug}.md`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.body).toBe(
      '# Refunds \\[beta\\] & \\*more\\*\n\nHow refunds work\n\n## When\n\nAsk within **thirty** days & keep the receipt.\n',
    );
    expect(response.headers.link).toBe(`<http://help.test/hc/${slug}/articles/${refunds.slug}>; rel="canonical"`);
    const page = await get(`/hc/${slug}/articles/${refunds.slug}`);
    const alternate = DomUtils.findOne(
      (element) => element.name === 'link' && element.attribs.rel === 'alternate',
      parseDocument(page.body).children,
    );
    expect(alternate?.attribs).toMatchObject({ type: 'text/markdown', href: `/hc/${slug}/articles/${refunds.slug}.md` });
  });

  it('redirects a renamed article’s old .md address to the new one', async () => {
    const renamed = (await patch(`/articles/${install._id}`, { title: 'Reading invoices' })).json().data;
    expect(renamed.slug).not.toBe(install.slug);
    const response = await get(`/hc/${slug}/articles/${install.slug}.md`);
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(`/hc/${slug}/articles/${renamed.slug}.md`);
    expect((await get(response.headers.location as string)).statusCode).toBe(200);
    install = renamed;
  });

  it('answers 404 for a draft, a protected article, path tricks and an unknown help center', async () => {
    for (const url of [
      `/hc/${slug}/articles/${draft.slug}.md`,
      `/hc/${slug}/articles/${secret.slug}.md`,
      `/hc/${slug}/articles/..%2F..%2Fetc%2Fpasswd.md`,
      `/hc/${slug}/articles/${refunds.slug}%00.md`,
      `/hc/${slug}/articles/${refunds.slug}.md.md`,
      `/hc/${slug}/articles/${refunds.slug}.html.md`,
      `/hc/${slug}/articles/..%2F${refunds.slug}.md`,
      '/hc/no-such-center/articles/1-x.md',
      '/hc/no-such-center/sitemap.xml',
      '/hc/no-such-center/llms.txt',
      '/hc/..%2F/llms.txt',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
    }
  });

  it('gives a protected collection’s Markdown to a signed-in reader alone, never cached, and lists it nowhere', async () => {
    const appDeps = depsOfApp(harness.app);
    const signIn = siteSignInDepsOf(appDeps);
    const contact = { id: 'contact-1', email: 'reader@example.com', name: null };
    const signedIn = Fastify();
    await signedIn.register(
      helpCenterSitePlugin({ ...siteDepsOf(appDeps, signIn), viewerOf: async () => ({ contact }) }, signIn),
      { prefix: '/hc' },
    );
    try {
      const response = await signedIn.inject({ url: `/hc/${slug}/articles/${secret.slug}.md`, headers: { host: 'help.test' } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toBe('# Partner pricing\n\nSecret discount tiers.\n');
      expect(response.headers['cache-control']).toBe('private, no-store');
      const sitemap = await signedIn.inject({ url: `/hc/${slug}/sitemap.xml`, headers: { host: 'help.test' } });
      expect(sitemap.body).not.toContain(secret.slug);
      const llms = await signedIn.inject({ url: `/hc/${slug}/llms.txt`, headers: { host: 'help.test' } });
      expect(llms.body).not.toContain('Partner pricing');
    } finally {
      await signedIn.close();
    }
    const anonymous = await get(`/hc/${slug}/articles/${refunds.slug}.md`);
    expect(anonymous.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
  });

  it('lists nothing of a protected help center and keeps its Markdown behind the sign-in', async () => {
    const locked = (await post('/help-centers', { name: `Locked ${dialect}`, isProtected: true })).json().data;
    const collection = (await post('/collections', { helpCenterId: locked._id, name: 'Inside' })).json().data;
    const article = await publish(collection._id, { title: 'Locked away', contentHtml: '<p>Members only.</p>' });
    expect((await get(`/hc/${locked.slug}/sitemap.xml`)).statusCode).toBe(404);
    expect((await get(`/hc/${locked.slug}/llms.txt`)).statusCode).toBe(404);
    const markdown = await get(`/hc/${locked.slug}/articles/${article.slug}.md`);
    expect(markdown.statusCode).toBe(303);
    expect(markdown.body).not.toContain('Members only');
  });
});
