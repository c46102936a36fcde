import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

// The smallest PNG: one transparent pixel.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const BOUNDARY = 'site-images-boundary';

describe.each(DIALECTS)("articles' uploaded images on the public site on %s", (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let slug: string;
  let collectionId: string;

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const upload = async (fileName: string, contentType: string, bytes: Buffer, headers = acme.headers) => {
    const payload = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/attachments',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as string;
  };
  const article = async (imageId: string, collection = collectionId, headers = acme.headers) => {
    const response = await post(
      '/articles',
      {
        collectionId: collection,
        title: 'With a picture',
        contentHtml: `<p>See:</p><img src="/v1/attachments/${imageId}" alt="A pixel">`,
      },
      headers,
    );
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { _id: string; slug: string };
  };
  const image = (helpCenterSlug: string, id: string) => harness.app.inject({ url: `/hc/${helpCenterSlug}/images/${id}` });

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const helpCenter = (await post('/help-centers', { name: `Images ${dialect}` })).json().data;
    slug = helpCenter.slug;
    collectionId = (await post('/collections', { helpCenterId: helpCenter._id, name: 'General' })).json().data._id;
  });
  afterAll(() => harness.close());

  it('a draft’s image is not public; published, it is served as an image (nosniff, cached briefly); unpublished, gone', async () => {
    const id = await upload('pixel.png', 'image/png', PNG);
    const written = await article(id);
    expect((await image(slug, id)).statusCode).toBe(404);
    await post(`/articles/${written._id}/publish`);
    const served = await image(slug, id);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=300');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const again = await harness.app.inject({
      url: `/hc/${slug}/images/${id}`,
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const page = await harness.app.inject({ url: `/hc/${slug}/articles/${written.slug}` });
    expect(page.body).toContain(`<img src="/hc/${slug}/images/${id}" alt="A pixel"`);
    expect(page.body).not.toContain('/v1/attachments/');

    await post(`/articles/${written._id}/unpublish`);
    expect((await image(slug, id)).statusCode).toBe(404);
  });

  it("another help center, another organization's, an unknown or malformed id, or a file that is not an image: 404", async () => {
    const id = await upload('pixel.png', 'image/png', PNG);
    await post(`/articles/${(await article(id))._id}/publish`);
    expect((await image(slug, id)).statusCode).toBe(200);

    const otherHelpCenter = (await post('/help-centers', { name: `Other ${dialect}` })).json().data;
    expect((await image(otherHelpCenter.slug, id)).statusCode).toBe(404);

    const theirs = (await post('/help-centers', { name: `Theirs ${dialect}` }, globex.headers)).json().data;
    const theirCollection = (await post('/collections', { helpCenterId: theirs._id, name: 'G' }, globex.headers)).json().data;
    // Their article names our attachment: it is not theirs to show.
    const borrowed = await article(id, theirCollection._id, globex.headers);
    await post(`/articles/${borrowed._id}/publish`, undefined, globex.headers);
    expect((await image(theirs.slug, id)).statusCode).toBe(404);

    expect((await image(slug, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).statusCode).toBe(404);
    expect((await image(slug, 'not-an-id')).statusCode).toBe(404);

    const page = await upload('page.html', 'text/html', Buffer.from('<script>alert(1)</script>'));
    await post(`/articles/${(await article(page))._id}/publish`);
    expect((await image(slug, page)).statusCode).toBe(404);
  });
});
