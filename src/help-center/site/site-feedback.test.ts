import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { VOTES_PER_ADDRESS } from './site-actions.routes.js';

const BOUNDARY = 'site-logo-boundary';
// The smallest PNG: one transparent pixel.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe.each(DIALECTS)('votes and the logo of the public site on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let slug: string;
  let helpCenterId: string;
  let article: { _id: string; uid: number; slug: string };
  let collectionId: string;

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const vote = (articleSlug: string, form: Record<string, string>, headers: Record<string, string> = {}, ip = '203.0.113.7') =>
    harness.app.inject({
      method: 'POST',
      url: `/hc/${slug}/articles/${articleSlug}/feedback`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(form).toString(),
      remoteAddress: ip,
    });
  const counts = async () => {
    const answer = (await harness.app.inject({ url: `/articles/${article._id}`, headers: acme.headers })).json().data;
    return { yes: answer.helpfulCount, no: answer.notHelpfulCount };
  };
  const voterCookie = (setCookie: string | string[] | undefined) => String(setCookie).split(';')[0] ?? '';

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const helpCenter = (await post('/help-centers', { name: `Votes ${dialect}` })).json().data;
    helpCenterId = helpCenter._id;
    slug = helpCenter.slug;
    collectionId = (await post('/collections', { helpCenterId, name: 'General' })).json().data._id;
    article = (await post('/articles', { collectionId, title: 'Reset a password', contentHtml: '<p>Click reset.</p>' })).json()
      .data;
    await post(`/articles/${article._id}/publish`);
  });
  afterAll(() => harness.close());

  it('counts a vote, replaces it when the same browser votes again, and keeps a comment on No', async () => {
    const first = await vote(article.slug, { helpful: 'yes' });
    expect(first.statusCode, first.body).toBe(303);
    expect(first.headers.location).toBe(`/hc/${slug}/articles/${article.slug}?feedback=yes#feedback`);
    const cookie = voterCookie(first.headers['set-cookie']);
    expect(cookie).toMatch(/^hc_voter=[A-Za-z0-9_-]{43}$/);
    expect(String(first.headers['set-cookie'])).toContain('HttpOnly');
    expect(await counts()).toEqual({ yes: 1, no: 0 });

    const again = await vote(article.slug, { helpful: 'no', comment: 'The reset link never came.' }, { cookie });
    expect(again.headers.location).toBe(`/hc/${slug}/articles/${article.slug}?feedback=sent#feedback`);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(await counts()).toEqual({ yes: 0, no: 1 });
    const comments = (await harness.app.inject({ url: `/articles/${article._id}/feedback`, headers: acme.headers })).json();
    expect(JSON.stringify(comments)).toContain('The reset link never came.');

    await vote(article.slug, { helpful: 'yes' });
    expect(await counts()).toEqual({ yes: 1, no: 1 });
  });

  it('shows the comment form after a plain No and the thanks after Yes', async () => {
    const no = await harness.app.inject({ url: `/hc/${slug}/articles/${article.slug}?feedback=no` });
    expect(no.body).toContain('name="comment"');
    const yes = await harness.app.inject({ url: `/hc/${slug}/articles/${article.slug}?feedback=yes` });
    expect(yes.body).toContain('Thanks for your feedback');
    expect(yes.body).not.toContain('Was this article helpful?');
  });

  it('refuses bad votes and writes nothing', async () => {
    const before = await counts();
    for (const [form, status] of [
      [{ helpful: 'maybe' }, 400],
      [{}, 400],
      [{ helpful: 'no', comment: 'x'.repeat(2001) }, 400],
    ] as const) {
      const response = await vote(article.slug, form as Record<string, string>);
      expect(response.statusCode, JSON.stringify(form)).toBe(status);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    expect((await vote('999999-nothing', { helpful: 'yes' })).statusCode).toBe(404);
    expect((await vote('..%2F..%2Fetc', { helpful: 'yes' })).statusCode).toBe(404);
    const json = await harness.app.inject({
      method: 'POST',
      url: `/hc/${slug}/articles/${article.slug}/feedback`,
      headers: { 'content-type': 'application/json' },
      payload: { helpful: 'yes' },
    });
    expect(json.statusCode).toBe(415);
    const foreign = await vote(article.slug, { helpful: 'yes' }, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(await counts()).toEqual(before);
  });

  it('does not take votes on a draft, and limits votes per address', async () => {
    const draft = (await post('/articles', { collectionId, title: 'Draft', contentHtml: '<p>x</p>' })).json().data;
    expect((await vote(draft.slug, { helpful: 'yes' })).statusCode).toBe(404);
    const flood = '198.51.100.9';
    for (let index = 0; index < VOTES_PER_ADDRESS; index++) {
      expect((await vote(article.slug, { helpful: 'yes' }, {}, flood)).statusCode).toBe(303);
    }
    const refused = await vote(article.slug, { helpful: 'yes' }, {}, flood);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("serves the help center's logo publicly, and a 404 without one or for another organization's", async () => {
    expect((await harness.app.inject({ url: `/hc/${slug}/logo` })).statusCode).toBe(404);
    const payload = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const uploaded = await harness.app.inject({
      method: 'POST',
      url: '/v1/attachments',
      headers: { ...acme.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload,
    });
    const logoId = uploaded.json().data.id;
    const set = await harness.app.inject({
      method: 'PATCH',
      url: `/help-centers/${helpCenterId}`,
      headers: acme.headers,
      payload: { theme: { logoAttachmentId: logoId, primaryColor: '#ffff00' } },
    });
    expect(set.statusCode, set.body).toBe(200);
    const logo = await harness.app.inject({ url: `/hc/${slug}/logo` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    const again = await harness.app.inject({ url: `/hc/${slug}/logo`, headers: { 'if-none-match': String(logo.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const home = await harness.app.inject({ url: `/hc/${slug}/` });
    expect(home.body).toContain(`<img src="/hc/${slug}/logo" alt=""/>`);
    // Yellow cannot carry white text: the header's brand colour is darkened until it reads.
    expect(home.body).toMatch(/--brand:#[0-9a-f]{6};--brand-on:#111827/);
    const other = (await post('/help-centers', { name: `Other ${dialect}` }, globex.headers)).json().data;
    expect((await harness.app.inject({ url: `/hc/${other.slug}/logo` })).statusCode).toBe(404);
  });
});
