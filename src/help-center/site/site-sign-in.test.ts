import { DomUtils, parseDocument } from 'htmlparser2';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp, testConfig } from '../../../test/harness.js';
import { buildApp } from '../../app.js';

const textOf = (html: string, name: string) =>
  DomUtils.findAll((element) => element.name === name, parseDocument(html).children).map((element) =>
    DomUtils.textContent(element).replace(/\s+/g, ' ').trim(),
  );
const MINUTE = 60_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** The address `inject` sends requests to, as a browser writes it in `Origin`. */
const OWN_ORIGIN = 'http://localhost';

describe.each(DIALECTS)('signing in to the public help center on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let slug: string;
  let closedSlug: string;
  let globexSlug: string;
  let partnerArticle: { slug: string };

  const api = (method: 'POST' | 'PATCH', url: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, payload });
  const get = (url: string, cookie?: string) => harness.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    harness.app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, ...headers },
      payload: new URLSearchParams(fields).toString(),
    });
  const publish = async (collectionId: string, payload: object, headers = acme.headers) => {
    const created = (await api('POST', '/articles', { collectionId, ...payload }, headers)).json().data;
    expect((await api('POST', `/articles/${created._id}/publish`, {}, headers)).statusCode).toBe(200);
    return created as { _id: string; slug: string };
  };
  const makeHelpCenter = async (org: TestOrganization, name: string, isProtected: boolean) => {
    const helpCenter = (await api('POST', '/help-centers', { name, isProtected }, org.headers)).json().data;
    const open = (await api('POST', '/collections', { helpCenterId: helpCenter._id, name: 'Billing' }, org.headers)).json().data;
    await publish(open._id, { title: 'Refunds', contentHtml: '<p>Ask within thirty days.</p>' }, org.headers);
    return helpCenter as { _id: string; slug: string };
  };
  const counts = async () => ({
    emails: (await harness.db.selectFrom('email_outbox').select('id').execute()).length,
    sessions: (await harness.db.selectFrom('help_center_contact_sessions').select('token_hash').execute()).length,
    used: (
      await harness.db.selectFrom('help_center_sign_in_links').select('token_hash').where('used_at', 'is not', null).execute()
    ).length,
  });
  /** Asks for a link at the help center; answers the path of the emailed link. */
  const emailedLink = async (email: string, helpCenterSlug = slug, next?: string) => {
    const before = (await counts()).emails;
    const response = await postForm(`/hc/${helpCenterSlug}/sign-in`, { email, ...(next ? { next } : {}) });
    expect(response.statusCode, response.body).toBe(200);
    const emails = await harness.db.selectFrom('email_outbox').select(['text_body', 'to_address']).orderBy('id').execute();
    expect(emails).toHaveLength(before + 1);
    const url = /(http:\/\/\S+\/sign-in\/\S+)\n/.exec(emails.at(-1)?.text_body ?? '')?.[1];
    expect(url).toBeDefined();
    expect(new URL(url ?? '').origin).toBe(OWN_ORIGIN);
    const parsed = new URL(url ?? '');
    return `${parsed.pathname}${parsed.search}`;
  };
  /** Follows the emailed link as a reader does (the page, then its Continue button); answers the cookie. */
  const signIn = async (email: string, helpCenterSlug = slug) => {
    const link = await emailedLink(email, helpCenterSlug);
    const redeemed = await postForm(link, {});
    expect(redeemed.statusCode, redeemed.body).toBe(303);
    return cookieOf(redeemed.headers['set-cookie']);
  };
  const cookieOf = (header: string | string[] | undefined) => {
    const value = [header ?? []].flat()[0] ?? '';
    expect(value).toMatch(/^hc_session=/);
    return value.split(';')[0] ?? '';
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const helpCenter = await makeHelpCenter(acme, `Acme Help ${dialect}`, false);
    slug = helpCenter.slug;
    const partners = (
      await api('POST', '/collections', { helpCenterId: helpCenter._id, name: 'Partners', isProtected: true })
    ).json().data;
    partnerArticle = await publish(partners._id, { title: 'Partner pricing', contentHtml: '<p>Secret discount tiers.</p>' });
    closedSlug = (await makeHelpCenter(acme, `Acme Closed ${dialect}`, true)).slug;
    globexSlug = (await makeHelpCenter(globex, `Globex Help ${dialect}`, false)).slug;
    for (const [org, payload] of [
      [acme, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@customer.example' }],
      [globex, { firstName: 'Grace', email: 'grace@customer.example' }],
    ] as const) {
      expect((await api('POST', '/v1/accounts/contacts', payload, org.headers)).statusCode).toBe(201);
    }
  });
  afterAll(() => harness.close());
  beforeEach(async () => {
    harness.clock.set(TEST_NOW);
    await harness.db.deleteFrom('attempt_counters').execute();
  });

  it('signs a contact in with the emailed link, shows protected collections, and signs out', async () => {
    const form = await get(`/hc/${slug}/sign-in`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<meta name="robots" content="noindex"');
    expect(form.body).toMatch(/<label for="sign-in-email">Email address<\/label>/);
    expect(form.headers['cache-control']).toBe('no-store');

    const link = await emailedLink('Ada@Customer.example');
    const before = await counts();
    const page = await get(link);
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('strict-origin');
    expect(page.body).toContain(`<form method="post" action="${link}"`);
    expect(textOf(page.body, 'button')).toContain('Continue');
    expect(await counts()).toEqual(before);

    const redeemed = await postForm(link, {}, { origin: OWN_ORIGIN });
    expect(redeemed.statusCode).toBe(303);
    expect(redeemed.headers.location).toBe(`/hc/${slug}/`);
    expect(redeemed.headers['set-cookie']).toMatch(
      /^hc_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/,
    );
    const cookie = cookieOf(redeemed.headers['set-cookie']);
    const home = await get(`/hc/${slug}/`, cookie);
    expect(textOf(home.body, 'h2')).toContain('Partners');
    expect(home.body).toContain('Ada Lovelace');
    expect((await get(`/hc/${slug}/articles/${partnerArticle.slug}`, cookie)).statusCode).toBe(200);

    const out = await postForm(`/hc/${slug}/sign-out`, {}, { cookie, origin: OWN_ORIGIN });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe(`/hc/${slug}/`);
    expect(out.headers['set-cookie']).toMatch(/^hc_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
    expect(textOf((await get(`/hc/${slug}/`, cookie)).body, 'h2')).not.toContain('Partners');
    expect((await get(`/hc/${slug}/articles/${partnerArticle.slug}`, cookie)).statusCode).toBe(404);
  });

  it('marks the cookie Secure when the request came over HTTPS (through a trusted proxy)', async () => {
    const proxied = await buildApp({
      config: testConfig({ TRUST_PROXY: 'true' }),
      db: harness.db,
      clock: harness.clock,
      ids: harness.ids,
      log: pino({ level: 'silent' }),
    });
    try {
      const link = await emailedLink('ada@customer.example');
      const headers = { ...FORM, 'x-forwarded-proto': 'https' };
      const redeemed = await proxied.inject({ method: 'POST', url: link, headers, payload: '' });
      expect(redeemed.statusCode).toBe(303);
      expect(redeemed.headers['set-cookie']).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    } finally {
      await proxied.close();
    }
  });

  it('answers the same page for an unknown email and sends nothing', async () => {
    const known = await postForm(`/hc/${slug}/sign-in`, { email: 'ada@customer.example' });
    const before = await counts();
    for (const email of ['nobody@customer.example', 'grace@customer.example']) {
      const unknown = await postForm(`/hc/${slug}/sign-in`, { email });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a missing or malformed email with a 400 form naming the problem, and writes nothing', async () => {
    const before = await counts();
    for (const fields of [
      {} as Record<string, string>,
      { email: '' },
      { email: 'not an email' },
      { email: '<script>"@x' },
      { email: `a@b${'c'.repeat(300)}` },
    ]) {
      const response = await postForm(`/hc/${slug}/sign-in`, fields);
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.body).toContain('aria-invalid="true"');
      // What was sent comes back in the field, as an attribute's text only.
      const document = parseDocument(response.body);
      const field = DomUtils.findOne((element) => element.attribs.id === 'sign-in-email', document.children);
      expect(field?.attribs.value).toBe((fields.email ?? '').slice(0, 254));
      expect(
        DomUtils.findAll(
          (element) => element.name === 'script' && !element.attribs.src && element.attribs.type !== 'application/ld+json',
          document.children,
        ),
      ).toEqual([]);
    }
    expect(await counts()).toEqual(before);
  });

  it('shows anonymous readers and other organizations’ contacts no protected collection', async () => {
    const anonymous = await get(`/hc/${slug}/`);
    expect(textOf(anonymous.body, 'h2')).not.toContain('Partners');
    const grace = await signIn('grace@customer.example', globexSlug);
    expect((await get(`/hc/${globexSlug}/`, grace)).body).toContain('Grace');
    const graceAtAcme = await get(`/hc/${slug}/`, grace);
    expect(textOf(graceAtAcme.body, 'h2')).not.toContain('Partners');
    expect(graceAtAcme.body).not.toContain('Grace');
    expect((await get(`/hc/${slug}/articles/${partnerArticle.slug}`, grace)).statusCode).toBe(404);
    // Grace is not a contact of Acme: asking for a link there sends nothing.
    const before = await counts();
    await postForm(`/hc/${slug}/sign-in`, { email: 'grace@customer.example' });
    expect(await counts()).toEqual(before);
  });

  it('shows a protected help center to its signed-in contacts only; a session of another help center is no good there', async () => {
    const anonymous = await get(`/hc/${closedSlug}/`);
    expect(anonymous.statusCode).toBe(303);
    const signInPage = await get(anonymous.headers.location as string);
    expect(signInPage.statusCode).toBe(200);
    expect(signInPage.body).toContain(`<input type="hidden" name="next" value="/hc/${closedSlug}/"`);
    const elsewhere = await signIn('ada@customer.example');
    expect((await get(`/hc/${closedSlug}/`, elsewhere)).statusCode).toBe(303);
    const cookie = await signIn('ada@customer.example', closedSlug);
    const home = await get(`/hc/${closedSlug}/`, cookie);
    expect(home.statusCode).toBe(200);
    expect(textOf(home.body, 'h2')).toContain('Billing');
  });

  it('treats a forged cookie as no cookie', async () => {
    for (const cookie of ['hc_session=forged', `hc_session=${'A'.repeat(43)}`, 'hc_session=', `hc_session=${'%00'.repeat(5)}`]) {
      const response = await get(`/hc/${slug}/`, cookie);
      expect(response.statusCode, cookie).toBe(200);
      expect(textOf(response.body, 'h2')).not.toContain('Partners');
      expect((await get(`/hc/${closedSlug}/`, cookie)).statusCode).toBe(303);
    }
  });

  it('refuses a reused, expired, forged or other help center’s link with a page offering a new one', async () => {
    const refusedPage = (response: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
      expect(response.statusCode).toBe(400);
      expect(textOf(response.body, 'h1')).toEqual(['This sign-in link does not work']);
      expect(response.body).toContain(`href="/hc/${slug}/sign-in"`);
      expect(response.headers['set-cookie']).toBeUndefined();
    };
    const link = await emailedLink('ada@customer.example');
    expect((await postForm(link, {})).statusCode).toBe(303);
    const before = await counts();
    refusedPage(await postForm(link, {}));

    const late = await emailedLink('ada@customer.example');
    harness.clock.advance(15 * MINUTE);
    refusedPage(await postForm(late, {}));

    const token = link.split('/').at(-1) ?? '';
    const forged = `${token.slice(0, 42)}${token.endsWith('A') ? 'B' : 'A'}`;
    refusedPage(await postForm(`/hc/${slug}/sign-in/${forged}`, {}));
    refusedPage(await postForm(`/hc/${slug}/sign-in/not-a-token`, {}));
    refusedPage(await get(`/hc/${slug}/sign-in/not-a-token`));
    refusedPage(await get(`/hc/${slug}/sign-in/${'%3Cscript%3E'.repeat(4)}`));

    harness.clock.set(TEST_NOW);
    const closedLink = await emailedLink('ada@customer.example', closedSlug);
    const elsewhere = await postForm(closedLink.replace(`/hc/${closedSlug}/`, `/hc/${slug}/`), {});
    refusedPage(elsewhere);
    const after = await counts();
    expect({ ...after, emails: before.emails }).toEqual({ ...before, emails: before.emails });
    expect((await postForm(closedLink, {})).statusCode).toBe(303);
  });

  it('returns to the page the reader came from, within the help center only', async () => {
    const article = `/hc/${slug}/articles/${partnerArticle.slug}`;
    const link = await emailedLink('ada@customer.example', slug, article);
    expect(link).toContain(`?next=${encodeURIComponent(article)}`);
    const page = await get(link);
    expect(page.body).toContain(`<input type="hidden" name="next" value="${article}"`);
    const redeemed = await postForm(link.split('?')[0] ?? '', { next: article });
    expect(redeemed.headers.location).toBe(article);

    for (const next of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example/',
      `/hc/${globexSlug}/`,
      `/hc/${slug}/../x/`,
    ]) {
      // Five links an email per 15 minutes: this test asks for more.
      await harness.db.deleteFrom('attempt_counters').execute();
      const form = await get(`/hc/${slug}/sign-in?next=${encodeURIComponent(next)}`);
      expect(form.body, next).not.toContain('name="next"');
      const attempt = await emailedLink('ada@customer.example', slug, next);
      expect(attempt, next).not.toContain('next=');
      const response = await postForm(attempt, { next });
      expect(response.headers.location, next).toBe(`/hc/${slug}/`);
    }
  });

  it('refuses form posts from another site (sign-out, sign-in, a link) and changes nothing', async () => {
    const cookie = await signIn('ada@customer.example');
    const link = await emailedLink('ada@customer.example');
    const before = await counts();
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { referer: 'https://evil.example/page' },
    ] as Record<string, string>[]) {
      const out = await postForm(`/hc/${slug}/sign-out`, {}, { ...headers, cookie });
      expect(out.statusCode).toBe(403);
      expect(out.headers['set-cookie']).toBeUndefined();
      expect((await postForm(link, {}, headers)).statusCode).toBe(403);
      expect((await postForm(`/hc/${slug}/sign-in`, { email: 'ada@customer.example' }, headers)).statusCode).toBe(403);
    }
    expect(await counts()).toEqual(before);
    expect(textOf((await get(`/hc/${slug}/`, cookie)).body, 'h2')).toContain('Partners');
    const out = await postForm(`/hc/${slug}/sign-out`, {}, { cookie, referer: `${OWN_ORIGIN}/hc/${slug}/` });
    expect(out.statusCode).toBe(303);
  });
});
