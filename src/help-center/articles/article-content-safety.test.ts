import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { liveHtml, liveMarkdown, liveMarkdownWithoutBackslashEscapes, renderMarkdown, shownText } from '../../../test/markup.js';

interface Article {
  _id: string;
  contentHtml: string;
  contentMarkdown: string;
  publishedVersion: { html: string } | null;
}

/** HTML bodies whose derived markdown must hold no live markup. */
const HOSTILE_HTML: [string, string][] = [
  ['an escaped tag', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
  ['an escaped script', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ['a live image with a handler', '<img src=x onerror=alert(1)>'],
  ['a javascript: link', '<a href="javascript:alert(1)">x</a>'],
  ['a tag split across elements', '<p>&lt;<span>img src=x onerror=alert(1)</span>&gt;</p>'],
  ['nested broken tags', '<<img src=x onerror=alert(1)>img src=x onerror=alert(1)>'],
  ['a link whose address breaks the markdown link', '<a href="https://x.test/a&#10;b" title="&lt;script&gt;">y</a>'],
  ['an image alt text with a tag', '<img src="https://x.test/a&#10;b" alt="&lt;img src=x onerror=alert(1)&gt;">'],
  ['code that closes its own fence', '<pre><code>a\n  ```\n&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>'],
];

describe.each(DIALECTS)('derived article content is safe on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let collectionId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const helpCenterId = (await post('/help-centers', { name: 'Help' })).json().data._id;
    collectionId = (await post('/collections', { helpCenterId, name: 'General' })).json().data._id;
  });
  afterAll(() => harness.close());

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const patch = (url: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url, headers, payload });
  const article = async (payload: object) => {
    const response = await post('/articles', { title: 'Safety', collectionId, ...payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Article;
  };

  it.each(HOSTILE_HTML)('%s: the markdown derived from HTML holds no live markup and shows the same text', async (_, html) => {
    const created = await article({ contentHtml: html });
    expect(liveHtml(created.contentHtml)).toEqual([]);
    expect(liveMarkdown(created.contentMarkdown)).toEqual([]);
    expect(liveMarkdownWithoutBackslashEscapes(created.contentMarkdown)).toEqual([]);
    expect(liveHtml(renderMarkdown(created.contentMarkdown))).toEqual([]);
    expect(shownText(renderMarkdown(created.contentMarkdown))).toBe(shownText(created.contentHtml));
  });

  it('an edited draft and its published version are safe too', async () => {
    const created = await article({ contentHtml: '<p>Draft</p>' });
    const edited = await patch(`/articles/${created._id}`, { contentHtml: '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.contentMarkdown).toBe('&lt;script>alert(1)&lt;/script>');
    const published = await post(`/articles/${created._id}/publish`);
    expect(published.statusCode, published.body).toBe(200);
    const { contentMarkdown, publishedVersion } = published.json().data as Article;
    expect(liveMarkdown(contentMarkdown)).toEqual([]);
    expect(publishedVersion?.html).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  it('markdown written by the author is kept as written, and the HTML rendered from it is sanitised', async () => {
    const markdown = [
      '<script>alert(1)</script>',
      '[click](javascript:alert(1))',
      '<img src=x onerror=alert(1)> and <a href="javascript:alert(1)">raw</a>',
      '<div onclick="alert(1)">\n\n**bold**\n\n</div>',
      'H<sub>2</sub>O, a < b && c > d',
    ].join('\n\n');
    const created = await article({ contentMarkdown: markdown });
    expect(created.contentMarkdown).toBe(markdown);
    expect(liveHtml(created.contentHtml)).toEqual([]);
    expect(created.contentHtml).toContain('<strong>bold</strong>');
    expect(created.contentHtml).toContain('H<sub>2</sub>O, a &lt; b &amp;&amp; c &gt; d');
  });

  it('leaves comparisons in text readable', async () => {
    expect((await article({ contentHtml: '<p>a &lt; b &amp;&amp; c &gt; d, 1 &lt; 2</p>' })).contentMarkdown).toBe(
      'a < b && c > d, 1 < 2',
    );
  });

  it("another organization's article is a 404 and keeps its body", async () => {
    const created = await article({ contentHtml: '<p>Ours</p>' });
    const response = await patch(`/articles/${created._id}`, { contentHtml: '<p>&lt;script&gt;</p>' }, globex.headers);
    expect(response.statusCode).toBe(404);
    const stored = await harness.app.inject({ url: `/articles/${created._id}`, headers: acme.headers });
    expect(stored.json().data.contentMarkdown).toBe('Ours');
  });
});
