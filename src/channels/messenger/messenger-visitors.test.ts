import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { widgetInject } from '../../../test/help-center-site.js';

const NOW_SECONDS = Date.parse(TEST_NOW) / 1000;
const UNAUTHORIZED = { error: { code: 'unauthorized', message: expect.any(String) } };

interface Claims {
  sub?: string;
  email?: string;
  name?: string;
  account?: string;
  exp?: number;
}

/** A host's identity token: HS256 with the widget secret, expiring in ten minutes unless told. */
async function sign(secret: string, claims: Claims): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(NOW_SECONDS)
    .sign(new TextEncoder().encode(secret));
}

describe.each(DIALECTS)('messenger visitors and identity on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const widget = async (name: string, settings: object = {}, headers = acme.headers) => {
    const created = await admin('POST', '/help-centers', { name }, headers);
    expect(created.statusCode, created.body).toBe(201);
    const { _id: id, slug } = created.json().data as { _id: string; slug: string };
    const set = await admin('PATCH', `/help-centers/${id}`, { widget: { enabled: true, ...settings } }, headers);
    expect(set.statusCode, set.body).toBe(200);
    const secret = (await admin('POST', `/help-centers/${id}/widget/secret`, undefined, headers)).json().data.secret as string;
    return { id, slug, secret };
  };
  const api = (slug: string, method: 'GET' | 'POST', path: string, options: { token?: string; payload?: object } = {}) =>
    widgetInject(harness, slug, method, path, options);
  const newVisitor = async (slug: string) => {
    const response = await api(slug, 'POST', '/visitors');
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { visitorToken: string; visitor: { id: string } };
  };
  const counts = async () => ({
    visitors: Number(
      (
        await harness.db
          .selectFrom('messenger_visitors')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    contacts: Number(
      (
        await harness.db
          .selectFrom('customer_contacts')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  it('creates anonymous visitors whose token is kept only hashed, and answers /me for it alone', async () => {
    const { slug } = await widget('Visitor Help');
    const { visitorToken, visitor } = await newVisitor(slug);
    expect(visitorToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(visitor).toEqual({ id: expect.any(String), verified: false, contact: null });
    const row = await harness.db
      .selectFrom('messenger_visitors')
      .selectAll()
      .where('id', '=', visitor.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ organization_id: acme.organizationId, contact_id: null, external_subject: null });
    expect(JSON.stringify(row)).not.toContain(visitorToken);

    const me = await api(slug, 'GET', '/me', { token: visitorToken });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toEqual({ visitor });
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: `Basic ${visitorToken}` }]) {
      const refused = await harness.app.inject({ url: `/widget/${slug}/api/me`, headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual(UNAUTHORIZED);
    }
    const unknown = await api(slug, 'GET', '/me', { token: 'A'.repeat(43) });
    expect(unknown.statusCode).toBe(401);
  });

  it("refuses another help center's and another organization's visitor token with a 401", async () => {
    const mine = await widget('Token Scope');
    const sibling = await widget('Token Sibling');
    const theirs = await widget('Token Elsewhere', {}, globex.headers);
    const siblingVisitor = await newVisitor(sibling.slug);
    const foreignVisitor = await newVisitor(theirs.slug);
    for (const token of [siblingVisitor.visitorToken, foreignVisitor.visitorToken]) {
      const response = await api(mine.slug, 'GET', '/me', { token });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
      expect((await api(mine.slug, 'GET', '/search?q=anything', { token })).statusCode).toBe(401);
    }
  });

  it('answers 404 not_found for an unknown help center or a disabled widget, and creates nothing', async () => {
    const created = (await admin('POST', '/help-centers', { name: 'Disabled Widget' })).json().data as { slug: string };
    const before = await counts();
    for (const slug of [created.slug, 'no-such-help-center']) {
      for (const [method, path] of [
        ['POST', '/visitors'],
        ['GET', '/config'],
        ['GET', '/me'],
        ['GET', '/search?q=x'],
        ['POST', '/identify'],
      ] as const) {
        const response = await api(
          slug,
          method,
          path,
          method === 'POST' && path === '/identify' ? { payload: { token: 'x' } } : {},
        );
        expect(response.statusCode, `${method} ${path}`).toBe(404);
        expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Messenger not found' } });
      }
    }
    expect(await counts()).toEqual(before);
  });

  it('identifies a visitor: links or creates the contact, keeps the anonymous visitor, replaces its token', async () => {
    const { slug, secret } = await widget('Identify Help');
    const account = await admin('POST', '/v1/accounts', { name: 'Lovelace Ltd', primaryDomain: 'lovelace.test' });
    expect(account.statusCode, account.body).toBe(201);
    const anonymous = await newVisitor(slug);
    const token = await sign(secret, {
      sub: 'customer-42',
      email: 'Ada@Lovelace.test',
      name: 'Ada Lovelace',
      account: 'lovelace ltd',
      exp: NOW_SECONDS + 600,
    });
    const identified = await api(slug, 'POST', '/identify', { token: anonymous.visitorToken, payload: { token } });
    expect(identified.statusCode, identified.body).toBe(200);
    const answer = identified.json();
    expect(answer.visitor).toEqual({
      id: anonymous.visitor.id,
      verified: true,
      contact: { name: 'Ada Lovelace', email: 'ada@lovelace.test' },
    });
    expect(answer.visitorToken).not.toBe(anonymous.visitorToken);
    expect((await api(slug, 'GET', '/me', { token: answer.visitorToken })).json().visitor).toEqual(answer.visitor);
    expect((await api(slug, 'GET', '/me', { token: anonymous.visitorToken })).statusCode).toBe(401);

    const contact = await harness.db
      .selectFrom('customer_contacts')
      .select(['id', 'organization_id', 'first_name', 'last_name'])
      .where('email', '=', 'ada@lovelace.test')
      .executeTakeFirstOrThrow();
    expect(contact).toMatchObject({ organization_id: acme.organizationId, first_name: 'Ada', last_name: 'Lovelace' });
    const links = await harness.db
      .selectFrom('account_contacts')
      .selectAll()
      .where('customer_contact_id', '=', contact.id)
      .execute();
    expect(links.map((link) => link.account_id)).toEqual([account.json().id]);

    // Again without a visitor token: a new visitor, the same contact; an unknown account links nothing.
    const again = await api(slug, 'POST', '/identify', {
      payload: {
        token: await sign(secret, {
          sub: 'customer-42',
          email: 'ada@lovelace.test',
          account: 'Nobody Inc',
          exp: NOW_SECONDS + 60,
        }),
      },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().visitor.id).not.toBe(anonymous.visitor.id);
    expect(again.json().visitor.contact).toEqual({ name: 'Ada Lovelace', email: 'ada@lovelace.test' });
    const contacts = await harness.db
      .selectFrom('customer_contacts')
      .select('id')
      .where('email', '=', 'ada@lovelace.test')
      .execute();
    expect(contacts).toHaveLength(1);
  });

  it('never moves a verified visitor to another identity: identifying as someone else makes a new visitor', async () => {
    const { slug, secret } = await widget('Identity Switch');
    const first = await api(slug, 'POST', '/identify', {
      payload: { token: await sign(secret, { sub: 'one', email: 'one@example.test', exp: NOW_SECONDS + 60 }) },
    });
    const firstToken = first.json().visitorToken as string;
    const second = await api(slug, 'POST', '/identify', {
      token: firstToken,
      payload: { token: await sign(secret, { sub: 'two', email: 'two@example.test', exp: NOW_SECONDS + 60 }) },
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().visitor.id).not.toBe(first.json().visitor.id);
    expect((await api(slug, 'GET', '/me', { token: firstToken })).json().visitor.contact.email).toBe('one@example.test');
    // The same subject again keeps its visitor and replaces its token.
    const renewed = await api(slug, 'POST', '/identify', {
      token: firstToken,
      payload: { token: await sign(secret, { sub: 'one', email: 'one@example.test', exp: NOW_SECONDS + 60 }) },
    });
    expect(renewed.json().visitor.id).toBe(first.json().visitor.id);
    expect((await api(slug, 'GET', '/me', { token: firstToken })).statusCode).toBe(401);
  });

  it("links a contact of the help center's own organization, never another organization's", async () => {
    const { slug, secret } = await widget('Own Contacts');
    const theirs = await admin(
      'POST',
      '/v1/accounts/contacts',
      { firstName: 'Grace', email: 'grace@hopper.test' },
      globex.headers,
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    const token = await sign(secret, { sub: 'g', email: 'grace@hopper.test', exp: NOW_SECONDS + 60 });
    const identified = await api(slug, 'POST', '/identify', { payload: { token } });
    expect(identified.statusCode, identified.body).toBe(200);
    const rows = await harness.db
      .selectFrom('customer_contacts')
      .select(['id', 'organization_id'])
      .where('email', '=', 'grace@hopper.test')
      .execute();
    expect(rows.map((row) => row.organization_id).sort()).toEqual([acme.organizationId, globex.organizationId].sort());
    const visitor = await harness.db
      .selectFrom('messenger_visitors')
      .select('contact_id')
      .where('id', '=', identified.json().visitor.id)
      .executeTakeFirstOrThrow();
    expect(visitor.contact_id).toBe(rows.find((row) => row.organization_id === acme.organizationId)?.id);
  });

  it('refuses bad identity tokens with a 401, writing nothing', async () => {
    const { id, slug, secret } = await widget('Refused Tokens');
    const sibling = await widget('Refused Sibling');
    const anonymous = await newVisitor(slug);
    const valid = { sub: 'customer-7', email: 'lin@example.test', exp: NOW_SECONDS + 600 };
    const refused: [string, string][] = [
      ['expired', await sign(secret, { ...valid, exp: NOW_SECONDS - 31 })],
      ['unsigned', new UnsecuredJWT({ ...valid }).setIssuedAt(NOW_SECONDS).encode()],
      ['signed with another secret', await sign('another-secret-another-secret-another-secret', valid)],
      ["signed with another help center's secret", await sign(sibling.secret, valid)],
      ['without sub', await sign(secret, { email: valid.email, exp: valid.exp })],
      ['without email', await sign(secret, { sub: valid.sub, exp: valid.exp })],
      ['with an invalid email', await sign(secret, { ...valid, email: 'not an email' })],
      ['without exp', await sign(secret, { sub: valid.sub, email: valid.email })],
      ['expiring more than 24 h ahead', await sign(secret, { ...valid, exp: NOW_SECONDS + 24 * 3600 + 120 })],
      ['not a JWT', 'not.a.jwt'],
    ];
    const before = await counts();
    for (const [name, token] of refused) {
      const response = await api(slug, 'POST', '/identify', { token: anonymous.visitorToken, payload: { token } });
      expect(response.statusCode, name).toBe(401);
      expect(response.json(), name).toEqual(UNAUTHORIZED);
    }
    expect(await counts()).toEqual(before);
    expect((await api(slug, 'GET', '/me', { token: anonymous.visitorToken })).json().visitor.verified).toBe(false);

    // Within the clock skew and the 24 hours, the same claims pass.
    for (const exp of [NOW_SECONDS - 20, NOW_SECONDS + 24 * 3600]) {
      const response = await api(slug, 'POST', '/identify', { payload: { token: await sign(secret, { ...valid, exp }) } });
      expect(response.statusCode, String(exp)).toBe(200);
    }

    // Rotating the secret refuses tokens signed with the old one.
    const old = await sign(secret, valid);
    const rotated = (await admin('POST', `/help-centers/${id}/widget/secret`)).json().data.secret as string;
    expect((await api(slug, 'POST', '/identify', { payload: { token: old } })).statusCode).toBe(401);
    expect((await api(slug, 'POST', '/identify', { payload: { token: await sign(rotated, valid) } })).statusCode).toBe(200);
  });

  it('refuses identity before any secret is made, and a body without a token', async () => {
    const created = (await admin('POST', '/help-centers', { name: 'No Secret' })).json().data as { _id: string; slug: string };
    await admin('PATCH', `/help-centers/${created._id}`, { widget: { enabled: true } });
    const token = await sign('whatever-secret', { sub: 's', email: 's@example.test', exp: NOW_SECONDS + 60 });
    expect((await api(created.slug, 'POST', '/identify', { payload: { token } })).statusCode).toBe(401);
    const empty = await api(created.slug, 'POST', '/identify', { payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('invalid_request');
  });
});
