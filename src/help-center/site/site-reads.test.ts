import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

/**
 * The bounded reads behind the article page's related articles and the site's search (see
 * bench/RESULTS.md, "Public help center"): what they find, and what they never show.
 */

/** Link texts inside the element matching `selector` (a class name). */
const linksIn = (html: string, className: string) => {
  const [section] = DomUtils.findAll(
    (element) => (element.attribs.class ?? '').split(' ').includes(className),
    parseDocument(html).children,
  );
  return section
    ? DomUtils.findAll((element) => element.name === 'a', section.children).map((a) => DomUtils.textContent(a).trim())
    : [];
};

describe.each(DIALECTS)('related articles and search of the public site on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let slug: string;
  let subject: { slug: string };

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const get = (url: string) => harness.app.inject({ method: 'GET', url });
  const publish = async (collectionId: string, payload: object, headers = acme.headers) => {
    const created = (await post('/articles', { collectionId, ...payload }, headers)).json().data;
    expect((await post(`/articles/${created._id}/publish`, undefined, headers)).statusCode).toBe(200);
    return created as { _id: string; uid: number; slug: string };
  };
  const collection = async (helpCenterId: string, name: string, extra: object = {}, headers = acme.headers) =>
    (await post('/collections', { helpCenterId, name, ...extra }, headers)).json().data._id as string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const helpCenter = (await post('/help-centers', { name: `Reads ${dialect}` })).json().data;
    slug = helpCenter.slug;
    const otherHelpCenter = (await post('/help-centers', { name: `Other reads ${dialect}` })).json().data;
    const guides = await collection(helpCenter._id, 'Guides');
    const billing = await collection(helpCenter._id, 'Billing');
    const partners = await collection(helpCenter._id, 'Partners', { isProtected: true });
    const elsewhere = await collection(otherHelpCenter._id, 'Elsewhere');
    const tag = async (name: string) => (await post('/tags', { name })).json().data._id as string;
    const [exports, invoices] = [await tag(`Exports ${dialect}`), await tag(`Invoices ${dialect}`)];
    subject = await publish(guides, { title: 'Export invoices', tags: [exports, invoices], contentHtml: '<p>Subject.</p>' });
    // Related by tags are those of the article's own collections (a tag does not cross collections).
    await publish(guides, { title: 'One tag', tags: [invoices], contentHtml: '<p>One shared.</p>' });
    await publish(guides, { title: 'Both tags', tags: [invoices, exports], contentHtml: '<p>Two shared.</p>' });
    await publish(billing, { title: 'Tags in another collection', tags: [invoices, exports], contentHtml: '<p>Apart.</p>' });
    await publish(guides, { title: 'Same collection', contentHtml: '<p>Neighbour.</p>' });
    await publish(partners, { title: 'Protected with tags', tags: [exports, invoices], contentHtml: '<p>Hidden.</p>' });
    await publish(elsewhere, { title: 'Other help center', tags: [exports, invoices], contentHtml: '<p>Away.</p>' });
    await post('/articles', { collectionId: guides, title: 'Draft with tags', tags: [exports], contentHtml: '<p>Draft.</p>' });
    // More matches out of the reader's sight than the first window of best matches holds (50),
    // each ranked above the visible one (the word in its title): the search reads further windows.
    for (let index = 0; index < 60; index++) {
      await publish(partners, { title: `Zebrafish ${index}`, contentHtml: '<p>zebrafish zebrafish zebrafish</p>' });
    }
    await publish(guides, { title: 'Aquarium care', contentHtml: '<p>Some keep a zebrafish.</p>' });
    await publish(billing, { title: 'Unpublished zebrafish', contentHtml: '<p>zebrafish</p>' }).then((article) =>
      post(`/articles/${article._id}/unpublish`),
    );
    const globexCenter = (await post('/help-centers', { name: `Globex reads ${dialect}` }, globex.headers)).json().data;
    const globexCollection = await collection(globexCenter._id, 'Fish', {}, globex.headers);
    await publish(globexCollection, { title: 'Globex zebrafish', contentHtml: '<p>zebrafish</p>' }, globex.headers);
  });
  afterAll(() => harness.close());

  it('lists articles sharing more tags first, then the rest of the collection, never hidden, draft or other help centers', async () => {
    const page = await get(`/hc/${slug}/articles/${subject.slug}`);
    expect(page.statusCode).toBe(200);
    expect(linksIn(page.body, 'related')).toEqual(['Both tags', 'One tag', 'Same collection', 'Aquarium care']);
  });

  it('finds a visible article ranked below a window of matches the reader may not see', async () => {
    const page = await get(`/hc/${slug}/search?q=zebrafish`);
    expect(page.statusCode).toBe(200);
    const results = DomUtils.findAll((element) => element.name === 'li', parseDocument(page.body).children)
      .map((element) => DomUtils.textContent(element).replace(/\s+/g, ' ').trim())
      .filter((text) => text.includes('zebrafish') || text.includes('Zebrafish'));
    expect(results).toHaveLength(1);
    expect(results[0]).toContain('Aquarium care');
    expect(page.body).toContain('<mark>zebrafish</mark>');
  });

  it('pages through the matches it keeps', async () => {
    const second = await get(`/hc/${slug}/search?q=zebrafish&page=2`);
    expect(second.statusCode).toBe(200);
    expect(second.body).not.toContain('Aquarium care');
    expect(second.body).not.toContain('Zebrafish 1');
  });
});
