import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';

type Created = { _id: string; uid: number; slug: string };

const MAIN_HOST = 'localhost:3000';
const ACME = 'help.acme.test';
const GLOBEX = 'help.globex.test';

const attributeOf = (html: string, tag: string, rel: string, name: string) =>
  DomUtils.findOne((element) => element.name === tag && element.attribs.rel === rel, parseDocument(html).children)?.attribs[name];

/** The `href` of every link in the page's main content and header. */
const hrefsOf = (html: string) =>
  DomUtils.findAll((element) => element.name === 'a', parseDocument(html).children).map((element) => element.attribs.href ?? '');

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) {
      throw new Error('timed out');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(DIALECTS)('help centers on their own domains on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let slug: string;
  let acmeCenterId: string;
  let billing: Created;
  let refunds: Created;
  let globexArticle: Created;

  const post = (url: string, payload?: object, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const patch = (url: string, payload: object, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url, headers, payload });
  const get = (host: string, url: string, headers: Record<string, string> = {}) =>
    harness.app.inject({ method: 'GET', url, headers: { host, ...headers } });
  const publish = async (collectionId: string, payload: object, headers: Record<string, string> = acme.headers) => {
    const created = (await post('/articles', { collectionId, ...payload }, headers)).json().data;
    expect((await post(`/articles/${created._id}/publish`, undefined, headers)).statusCode).toBe(200);
    return created as Created;
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const center = (await post('/help-centers', { name: `Acme ${dialect}` })).json().data;
    acmeCenterId = center._id;
    slug = center.slug;
    expect((await patch(`/help-centers/${acmeCenterId}`, { customDomain: ACME })).statusCode).toBe(200);
    billing = (await post('/collections', { helpCenterId: acmeCenterId, name: 'Billing' })).json().data;
    refunds = await publish(billing._id, { title: 'Refunds', contentHtml: '<p>Ask within thirty days.</p>' });

    const other = (await post('/help-centers', { name: `Globex ${dialect}` }, globex.headers)).json().data;
    expect((await patch(`/help-centers/${other._id}`, { customDomain: GLOBEX }, globex.headers)).statusCode).toBe(200);
    const globexCollection = (await post('/collections', { helpCenterId: other._id, name: 'Globex' }, globex.headers)).json()
      .data;
    globexArticle = await publish(globexCollection._id, { title: 'Globex secrets', contentHtml: '<p>Ours.</p>' }, globex.headers);
  });
  afterAll(() => harness.close());

  it('serves the pages at the root of the domain, with links, canonical URLs and redirects without /hc/{slug}', async () => {
    const home = await get(ACME, '/');
    expect(home.statusCode, home.body).toBe(200);
    expect(attributeOf(home.body, 'link', 'canonical', 'href')).toBe(`http://${ACME}/`);
    const links = hrefsOf(home.body);
    expect(links).toContain(`/collections/${billing.uid}-billing`);
    expect(links.filter((href) => href.includes('/hc/'))).toEqual([]);
    expect(home.body).not.toContain(`/hc/${slug}`);

    const article = await get(ACME, `/articles/${refunds.slug}`);
    expect(article.statusCode).toBe(200);
    expect(article.body).toContain('Ask within thirty days.');
    expect(attributeOf(article.body, 'link', 'canonical', 'href')).toBe(`http://${ACME}/articles/${refunds.slug}`);
    expect(attributeOf(article.body, 'link', 'alternate', 'href')).toBe(`/articles/${refunds.slug}.md`);
    expect(article.body).not.toContain(`/hc/${slug}`);

    const stylesheet = attributeOf(article.body, 'link', 'stylesheet', 'href') ?? '';
    expect(stylesheet.startsWith('/hc-assets/')).toBe(true);
    expect((await get(ACME, stylesheet)).statusCode).toBe(200);

    const moved = await get(ACME, `/articles/${refunds.uid}-old-name`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/articles/${refunds.slug}`);
    const markdown = await get(ACME, `/articles/${refunds.uid}-old-name.md`);
    expect(markdown.headers.location).toBe(`/articles/${refunds.slug}.md`);
    expect((await get(ACME, `/articles/${refunds.slug}.md`)).body).toContain('Ask within thirty days.');
  });

  it('takes the article page’s vote on the domain and sends the reader back there', async () => {
    const vote = await harness.app.inject({
      method: 'POST',
      url: `/articles/${refunds.slug}/feedback`,
      headers: { host: ACME, origin: `http://${ACME}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'helpful=yes',
    });
    expect(vote.statusCode, vote.body).toBe(303);
    expect(vote.headers.location).toBe(`/articles/${refunds.slug}?feedback=yes#feedback`);
  });

  it('compares the host in lower case, without its port or final dot', async () => {
    for (const host of ['HELP.ACME.TEST', `${ACME}:8443`, `${ACME}.`]) {
      const response = await get(host, `/articles/${refunds.slug}`);
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('lists the domain’s addresses in its sitemap.xml, llms.txt and robots.txt', async () => {
    const sitemap = await get(ACME, '/sitemap.xml');
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(sitemap.body).toContain(`<loc>http://${ACME}/articles/${refunds.slug}</loc>`);
    expect(sitemap.body).not.toContain('/hc/');
    const llms = await get(ACME, '/llms.txt');
    expect(llms.body).toContain(`- [Refunds](http://${ACME}/articles/${refunds.slug}.md)`);
    const robots = await get(ACME, '/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /search',
        'Disallow: /sign-in',
        '',
        `Sitemap: http://${ACME}/sitemap.xml`,
        '',
      ].join('\n'),
    );
  });

  it('lists every public help center’s sitemap in the shared host’s robots.txt', async () => {
    const plain = (await post('/help-centers', { name: `Plain ${dialect}` })).json().data;
    const locked = (await post('/help-centers', { name: `Locked ${dialect}`, isProtected: true })).json().data;
    const robots = await get(MAIN_HOST, '/robots.txt');
    expect(robots.statusCode).toBe(200);
    const lines = robots.body.split('\n');
    expect(lines.slice(0, 4)).toEqual(['User-agent: *', 'Allow: /', 'Disallow: /hc/*/search', 'Disallow: /hc/*/sign-in']);
    expect(lines).toContain(`Sitemap: http://${MAIN_HOST}/hc/${plain.slug}/sitemap.xml`);
    expect(lines).toContain(`Sitemap: http://${ACME}/sitemap.xml`);
    expect(lines).toContain(`Sitemap: http://${GLOBEX}/sitemap.xml`);
    expect(robots.body).not.toContain(locked.slug);
  });

  it('still serves /hc/{slug} on the shared host, with canonical URLs on the custom domain', async () => {
    const article = await get(MAIN_HOST, `/hc/${slug}/articles/${refunds.slug}`);
    expect(article.statusCode).toBe(200);
    expect(attributeOf(article.body, 'link', 'canonical', 'href')).toBe(`http://${ACME}/articles/${refunds.slug}`);
    expect(hrefsOf(article.body)).toContain(`/hc/${slug}/collections/${billing.uid}-billing`);
    const sitemap = await get(MAIN_HOST, `/hc/${slug}/sitemap.xml`);
    expect(sitemap.body).toContain(`<loc>http://${ACME}/articles/${refunds.slug}</loc>`);
    // The API answers on the shared host and on hosts it does not know.
    expect((await get(MAIN_HOST, '/help-centers', acme.headers)).statusCode).toBe(200);
    expect((await get('unknown.example', '/help-centers', acme.headers)).statusCode).toBe(200);
  });

  it('serves no API and no other help center on a custom domain', async () => {
    for (const url of [
      '/help-centers',
      `/help-centers/${acmeCenterId}`,
      '/v1/tickets',
      '/api/v1/agents',
      '/docs/help-center.json',
      `/hc/${slug}/`,
      `/hc/${slug}/articles/${refunds.slug}`,
      '/..%2Fv1%2Ftickets',
      '/%2e%2e/help-centers',
      '//help-centers',
    ]) {
      const response = await get(ACME, url, acme.headers);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
    }
    const write = await harness.app.inject({
      method: 'PATCH',
      url: `/help-centers/${acmeCenterId}`,
      headers: { host: ACME, ...acme.headers },
      payload: { name: 'Taken over' },
    });
    expect(write.statusCode).toBe(404);
    expect((await get(MAIN_HOST, `/hc/${slug}/`)).body).not.toContain('Taken over');
  });

  it('never shows one organization’s pages on another organization’s domain', async () => {
    for (const url of [`/hc/${slug}/articles/${refunds.slug}`, `/hc/${slug}/articles/${refunds.slug}.md`, `/hc/${slug}/`]) {
      const response = await get(GLOBEX, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('Ask within thirty days.');
    }
    // Article numbers are per organization: Acme's first article's address names Globex's own first article there.
    expect(globexArticle.uid).toBe(refunds.uid);
    const same = await get(GLOBEX, `/articles/${refunds.slug}`);
    expect(same.statusCode).toBe(301);
    expect(same.headers.location).toBe(`/articles/${globexArticle.slug}`);
    expect((await get(GLOBEX, `/articles/${refunds.slug}.md`)).headers.location).toBe(`/articles/${globexArticle.slug}.md`);
    expect((await get(GLOBEX, `/articles/${globexArticle.slug}`)).statusCode).toBe(200);
    const back = await get(ACME, `/articles/${globexArticle.slug}`);
    expect(back.headers.location).toBe(`/articles/${refunds.slug}`);
    expect((await get(GLOBEX, '/sitemap.xml')).body).not.toContain(refunds.slug);
  });

  it('stops serving a domain at once when the database no longer gives it to the help center', async () => {
    // Changed behind the process's back (no PATCH, no notification): its map is stale.
    await harness.db
      .updateTable('help_centers')
      .set({ custom_domain: 'moved.acme.test' })
      .where('id', '=', acmeCenterId)
      .execute();
    try {
      expect((await get(ACME, `/articles/${refunds.slug}`)).statusCode).toBe(404);
      const robots = await get(ACME, '/robots.txt');
      expect(robots.body).not.toContain('Sitemap:');
    } finally {
      await harness.db.updateTable('help_centers').set({ custom_domain: ACME }).where('id', '=', acmeCenterId).execute();
    }
    expect((await get(ACME, `/articles/${refunds.slug}`)).statusCode).toBe(200);
  });

  it('sends anonymous readers of a protected help center on its domain to its sign-in page, without /hc/{slug}', async () => {
    const closed = (await post('/help-centers', { name: `Closed ${dialect}`, isProtected: true })).json().data;
    expect((await patch(`/help-centers/${closed._id}`, { customDomain: 'closed.acme.test' })).statusCode).toBe(200);
    const response = await get('closed.acme.test', '/articles/1-x');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/sign-in?next=${encodeURIComponent('/articles/1-x')}`);
    expect((await get('closed.acme.test', '/sitemap.xml')).statusCode).toBe(404);
    expect((await get('closed.acme.test', '/robots.txt')).body).not.toContain('Sitemap:');
  });

  it('serves a domain set or moved in one process from every process', async () => {
    const processes = await serverProcesses(harness);
    try {
      const [, last] = [processes.apps[0], processes.apps.at(-1)];
      const center = (await post('/help-centers', { name: `Moving ${dialect}` })).json().data;
      const collection = (await post('/collections', { helpCenterId: center._id, name: 'Things' })).json().data;
      const article = await publish(collection._id, { title: 'Moving day', contentHtml: '<p>Boxes.</p>' });
      const read = async (host: string) =>
        (await last?.inject({ url: `/articles/${article.slug}`, headers: { host } }))?.statusCode ?? 0;
      // An unknown host is the shared one: no page there.
      expect(await read('first.acme.test')).not.toBe(200);
      expect((await patch(`/help-centers/${center._id}`, { customDomain: 'first.acme.test' })).statusCode).toBe(200);
      // This process at once; the others once the notification arrives.
      expect((await get('first.acme.test', `/articles/${article.slug}`)).statusCode).toBe(200);
      await waitFor(async () => (await read('first.acme.test')) === 200);
      expect((await patch(`/help-centers/${center._id}`, { customDomain: 'second.acme.test' })).statusCode).toBe(200);
      expect((await get('first.acme.test', `/articles/${article.slug}`)).statusCode).not.toBe(200);
      await waitFor(async () => (await read('second.acme.test')) === 200);
      expect(await read('first.acme.test')).not.toBe(200);
    } finally {
      await processes.close();
    }
  });
});
