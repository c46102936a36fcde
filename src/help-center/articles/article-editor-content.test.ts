import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

const UPLOADED = '/v1/attachments/01KF0E44M0RNZCXJHPKTGHM7MG';

describe.each(DIALECTS)('what the article editor writes, as the API keeps it, on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let collectionId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    const helpCenterId = (await post('/help-centers', { name: 'Help' })).json().data._id;
    collectionId = (await post('/collections', { helpCenterId, name: 'General' })).json().data._id;
  });
  afterAll(() => harness.close());

  const post = (url: string, payload?: object) => harness.app.inject({ method: 'POST', url, headers: acme.headers, payload });
  const stored = async (payload: object) => {
    const response = await post('/articles', { title: 'Editor', collectionId, ...payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.contentHtml as string;
  };

  it('keeps callouts by their classes, and nothing of them that could run or hide data', async () => {
    const html = await stored({
      contentHtml:
        '<div class="callout callout-warning" data-callout="warning" onclick="alert(1)" style="color:red"><p>Back up first.</p></div>',
    });
    expect(html).toBe('<div class="callout callout-warning"><p>Back up first.</p></div>');
  });

  it("keeps images uploaded to the organization, drops another site's images (HTML and markdown) and data: images", async () => {
    const html = await stored({
      contentHtml:
        `<p>a</p><img src="${UPLOADED}" alt="Ours"><img src="https://tracker.example/pixel.gif" alt="Theirs">` +
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="Inline"><img src="//cdn.example/x.png"><img src="/v1/attachments/../x">',
    });
    expect(html).toBe(`<p>a</p><img src="${UPLOADED}" alt="Ours" />`);
    const fromMarkdown = await stored({ contentMarkdown: `![Ours](${UPLOADED}) ![Theirs](https://tracker.example/p.gif)` });
    expect(fromMarkdown.trim()).toBe(`<p><img src="${UPLOADED}" alt="Ours" /> </p>`);
  });

  it('drops scripts, handlers and javascript: links of pasted HTML, keeping headings, lists, links, tables and code', async () => {
    const html = await stored({
      contentHtml:
        '<h2 style="color:red">Title</h2><script>alert(1)</script><ul><li onmouseover="alert(1)">One</li></ul>' +
        '<p><a href="javascript:alert(1)">bad</a> <a href="https://example.test/">good</a></p>' +
        '<table><tbody><tr><td>Cell</td></tr></tbody></table><pre><code>npm ci</code></pre>',
    });
    expect(html).toBe(
      '<h2>Title</h2><ul><li>One</li></ul><p><a rel="noopener noreferrer nofollow">bad</a> <a href="https://example.test/" rel="noopener noreferrer nofollow">good</a></p>' +
        '<table><tbody><tr><td>Cell</td></tr></tbody></table><pre><code>npm ci</code></pre>',
    );
  });
});
