import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { makeSiteFixture, type SiteFixture, widgetInject } from '../../../test/help-center-site.js';

const NOW_SECONDS = Date.parse(TEST_NOW) / 1000;

describe.each(DIALECTS)('messenger search and articles on %s', (dialect) => {
  let harness: TestApp;
  let site: SiteFixture;
  let secret: string;
  let anonymousToken: string;
  let verifiedToken: string;
  let draftSlug: string;

  const api = (slug: string, path: string, token?: string) => widgetInject(harness, slug, 'GET', path, { token });
  const identify = async (slug: string, widgetSecret: string, email: string) => {
    const jwt = await new SignJWT({ email, name: 'Pat Partner' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(`host-${email}`)
      .setExpirationTime(NOW_SECONDS + 300)
      .sign(new TextEncoder().encode(widgetSecret));
    const response = await harness.app.inject({ method: 'POST', url: `/widget/${slug}/api/identify`, payload: { token: jwt } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().visitorToken as string;
  };
  const titles = async (path: string, token?: string) => {
    const response = await api(site.slug, path, token);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().results as { title: string }[]).map((result) => result.title);
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    site = await makeSiteFixture(harness, 'Messenger Answers');
    expect((await site.call('PATCH', `/help-centers/${site.helpCenterId}`, { widget: { enabled: true } })).statusCode).toBe(200);
    secret = (await site.call('POST', `/help-centers/${site.helpCenterId}/widget/secret`)).json().data.secret;
    const draft = await site.call('POST', '/articles', {
      collectionId: site.gettingStarted._id,
      title: 'Unreleased refunds policy',
      contentHtml: '<p>Refunds draft.</p>',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    draftSlug = `${draft.json().data.uid}-${draft.json().data.slug}`;
    anonymousToken = (await harness.app.inject({ method: 'POST', url: `/widget/${site.slug}/api/visitors` })).json().visitorToken;
    verifiedToken = await identify(site.slug, secret, 'pat@partner.test');
  });
  afterAll(() => harness.close());

  it("searches the published articles, with the site's excerpt and address", async () => {
    const response = await api(site.slug, '/search?q=thirty');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      results: [
        {
          title: 'Refunds',
          slug: site.refunds.slug,
          excerptHtml: expect.stringContaining('within <mark>thirty</mark> days'),
          url: `http://localhost:3000/hc/${site.slug}/articles/${site.refunds.slug}`,
        },
      ],
      page: 1,
      hasMore: false,
    });
    expect(await titles('/search?q=refunds', anonymousToken)).toEqual(['Refunds']);
    expect(await titles('/search?q=')).toEqual([]);
  });

  it('reads a published article; a draft or an unknown article is a 404', async () => {
    const response = await api(site.slug, `/articles/${site.install.slug}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      title: 'Install the app',
      slug: site.install.slug,
      html: expect.stringContaining('Download it.'),
      url: `http://localhost:3000/hc/${site.slug}/articles/${site.install.slug}`,
      updatedAt: expect.any(String),
    });
    for (const slug of [draftSlug, '99999-nothing', 'not-a-segment']) {
      const missing = await api(site.slug, `/articles/${slug}`, verifiedToken);
      expect(missing.statusCode, slug).toBe(404);
      expect(missing.json()).toEqual({ error: { code: 'not_found', message: 'Article not found' } });
    }
  });

  it('shows protected collections to a verified contact only, as the signed-in site does', async () => {
    expect(await titles('/search?q=partner')).toEqual([]);
    expect(await titles('/search?q=partner', anonymousToken)).toEqual([]);
    expect(await titles('/search?q=partner', verifiedToken)).toEqual(['Partner pricing']);
    const hit = (await api(site.slug, '/search?q=partner', verifiedToken)).json().results[0] as { slug: string };
    expect((await api(site.slug, `/articles/${hit.slug}`)).statusCode).toBe(404);
    expect((await api(site.slug, `/articles/${hit.slug}`, anonymousToken)).statusCode).toBe(404);
    const read = await api(site.slug, `/articles/${hit.slug}`, verifiedToken);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().html).toContain('Secret discount tiers.');
  });

  it("gives another organization's verified contact nothing of this help center", async () => {
    const other = await makeOrganization(harness);
    const theirs = await harness.app.inject({
      method: 'POST',
      url: '/help-centers',
      headers: other.headers,
      payload: { name: 'Other Answers' },
    });
    const { _id: id, slug } = theirs.json().data as { _id: string; slug: string };
    await harness.app.inject({
      method: 'PATCH',
      url: `/help-centers/${id}`,
      headers: other.headers,
      payload: { widget: { enabled: true } },
    });
    const otherSecret = (
      await harness.app.inject({ method: 'POST', url: `/help-centers/${id}/widget/secret`, headers: other.headers })
    ).json().data.secret as string;
    const foreignToken = await identify(slug, otherSecret, 'pat@partner.test');
    const refused = await api(site.slug, '/search?q=partner', foreignToken);
    expect(refused.statusCode).toBe(401);
    expect((await api(site.slug, `/articles/${site.install.slug}`, foreignToken)).statusCode).toBe(401);
    // Their own help center has none of this organization's articles.
    expect((await api(slug, '/search?q=refunds', foreignToken)).json().results).toEqual([]);
  });

  it('hides everything of a protected help center from anonymous visitors', async () => {
    expect((await site.call('PATCH', `/help-centers/${site.helpCenterId}`, { isProtected: true })).statusCode).toBe(200);
    try {
      expect(await titles('/search?q=refunds', anonymousToken)).toEqual([]);
      expect((await api(site.slug, `/articles/${site.refunds.slug}`)).statusCode).toBe(404);
      expect(await titles('/search?q=refunds', verifiedToken)).toEqual(['Refunds']);
      expect((await api(site.slug, `/articles/${site.refunds.slug}`, verifiedToken)).statusCode).toBe(200);
    } finally {
      await site.call('PATCH', `/help-centers/${site.helpCenterId}`, { isProtected: false });
    }
  });

  it('refuses NUL, over-long and unknown query terms with a 400 invalid_request', async () => {
    for (const query of [
      `q=${encodeURIComponent('refunds\u0000')}`,
      `q=${'a'.repeat(10_000)}`,
      `q=${'a'.repeat(201)}`,
      'q=refunds&page=0',
      'q=refunds&page=51',
      'q=refunds&sort=new',
    ]) {
      const response = await api(site.slug, `/search?${query}`);
      expect(response.statusCode, query.slice(0, 40)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
  });
});
