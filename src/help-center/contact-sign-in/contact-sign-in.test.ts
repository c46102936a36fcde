import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { connectPostgres } from '../../db/connect.js';
import type { DB } from '../../db/database.js';
import { databaseAttemptCounter } from '../../http/attempt-counters.js';
import {
  type ContactSignInDeps,
  contactOfSession,
  endContactSession,
  LINK_REQUESTS_PER_ADDRESS,
  LINK_REQUESTS_PER_EMAIL,
  normaliseSignInEmail,
  redeemSignInLink,
  requestSignInLink,
} from './contact-sign-in.service.js';

const MINUTE = 60_000;
const LINK_BASE = 'https://help.example/hc/acme-help';
/** The token with its last character changed: well-formed, but not the token. */
const altered = (token: string) => `${token.slice(0, 42)}${token.endsWith('A') ? 'B' : 'A'}`;

describe('sign-in emails are normalised', () => {
  it.each([
    ['  Ada@Example.COM ', 'ada@example.com'],
    ['ada', null],
    ['ada@', null],
    ['a b@example.com', null],
    ['ada@exa\u0000mple.com', null],
    ['<script>@x', null],
    ['ada@-example.com', null],
    ["o'brien+help@mail.example.co", "o'brien+help@mail.example.co"],
    [`${'a'.repeat(250)}@example.com`, null],
  ])('%j → %j', (raw, normalised) => {
    expect(normaliseSignInEmail(raw)).toBe(normalised);
  });
});

describe.each(DIALECTS)('help-center contact sign-in on %s', (dialect) => {
  let harness: TestApp;
  let deps: ContactSignInDeps;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let acmeHelp: { id: string; name: string; slug: string };
  let acmeOther: { id: string; name: string; slug: string };
  let globexHelp: { id: string; name: string; slug: string };
  let ada: { id: string; email: string };
  let grace: { id: string; email: string };
  let address = 0;

  const makeHelpCenter = async (org: TestOrganization, name: string) => {
    const response = await harness.app.inject({ method: 'POST', url: '/help-centers', headers: org.headers, payload: { name } });
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json().data as { _id: string; name: string; slug: string };
    return { id: data._id, name: data.name, slug: data.slug };
  };
  const makeContact = async (org: TestOrganization, payload: object) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/accounts/contacts',
      headers: org.headers,
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; email: string };
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    deps = { db: harness.db, clock: harness.clock, ids: harness.ids, attempts: databaseAttemptCounter(harness) };
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    acmeHelp = await makeHelpCenter(acme, 'Acme Help');
    acmeOther = await makeHelpCenter(acme, 'Acme Partners');
    globexHelp = await makeHelpCenter(globex, 'Globex Help');
    ada = await makeContact(acme, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@customer.example' });
    grace = await makeContact(globex, { firstName: 'Grace', email: 'grace@customer.example' });
  });
  afterAll(() => harness.close());
  beforeEach(async () => {
    harness.clock.set(TEST_NOW);
    // Each test counts from zero: the counters are not what most tests are about.
    await harness.db.deleteFrom('attempt_counters').execute();
  });

  /** A fresh client address per request unless given, so the per-address limit stays out of the way. */
  const request = (email: string, over: { helpCenter?: typeof acmeHelp; org?: TestOrganization; from?: string } = {}) =>
    requestSignInLink(deps, {
      organizationId: (over.org ?? acme).organizationId,
      helpCenter: over.helpCenter ?? acmeHelp,
      email,
      linkBase: LINK_BASE,
      requestAddress: over.from ?? `192.0.2.${++address % 250}`,
    });
  const outbox = (organizationId: string) =>
    harness.db
      .selectFrom('email_outbox')
      .select(['to_address', 'subject', 'text_body', 'from_address'])
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute();
  const writes = async () => ({
    links: (await harness.db.selectFrom('help_center_sign_in_links').select('token_hash').execute()).length,
    sessions: (await harness.db.selectFrom('help_center_contact_sessions').select('token_hash').execute()).length,
    emails: (await harness.db.selectFrom('email_outbox').select('id').execute()).length,
  });
  const tokenOf = (text: string) => {
    const match = text.match(/https:\/\/help\.example\/hc\/acme-help\/sign-in\/([A-Za-z0-9_-]{43})\n/);
    expect(match, text).not.toBeNull();
    return match?.[1] as string;
  };
  /** Asks for a link for Ada and answers the token of the email it queued. */
  const linkForAda = async (helpCenter = acmeHelp) => {
    const before = (await outbox(acme.organizationId)).length;
    await request(' ADA@customer.example ', { helpCenter });
    const emails = await outbox(acme.organizationId);
    expect(emails).toHaveLength(before + 1);
    return tokenOf(emails.at(-1)?.text_body ?? '');
  };
  const redeem = (token: string, helpCenter = acmeHelp, db: Kysely<DB> = harness.db) =>
    redeemSignInLink({ db, clock: harness.clock }, { organizationId: acme.organizationId, helpCenterId: helpCenter.id, token });
  const sessionOf = (sessionToken: string, helpCenter = acmeHelp, organizationId = acme.organizationId) =>
    contactOfSession(deps, { organizationId, helpCenterId: helpCenter.id, sessionToken });

  it("a known contact's email gets exactly one email, from SMTP_FROM, whose link signs in once", async () => {
    const before = (await outbox(acme.organizationId)).length;
    await expect(request('Ada@Customer.example')).resolves.toBeUndefined();
    const emails = (await outbox(acme.organizationId)).slice(before);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to_address: 'ada@customer.example', subject: 'Sign in to Acme Help', from_address: null });
    expect(emails[0]?.text_body).toContain('until 2026-01-15 09:15 UTC');
    const token = tokenOf(emails[0]?.text_body ?? '');
    // Only the hash is stored.
    const stored = await harness.db.selectFrom('help_center_sign_in_links').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);

    const session = await redeem(token);
    expect(session).toEqual({
      sessionToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: '2026-02-14T09:00:00.000Z',
    });
    expect(await sessionOf(session?.sessionToken ?? '')).toEqual({
      contactId: ada.id,
      email: 'ada@customer.example',
      name: 'Ada Lovelace',
    });
    expect(await redeem(token)).toBeNull();
  });

  it('the link carries where to go once signed in', async () => {
    await requestSignInLink(deps, {
      organizationId: acme.organizationId,
      helpCenter: acmeHelp,
      email: 'ada@customer.example',
      linkBase: LINK_BASE,
      requestAddress: '192.0.2.251',
      returnPath: '/hc/acme-help/articles/12-a b',
    });
    const text = (await outbox(acme.organizationId)).at(-1)?.text_body ?? '';
    expect(text).toMatch(/\/sign-in\/[A-Za-z0-9_-]{43}\?next=%2Fhc%2Facme-help%2Farticles%2F12-a%20b\n/);
  });

  it('an unknown email, or another organization’s contact, gets nothing and the same answer', async () => {
    const before = await writes();
    await expect(request('nobody@customer.example')).resolves.toBeUndefined();
    await expect(request('grace@customer.example')).resolves.toBeUndefined();
    expect(await writes()).toEqual(before);
    // Grace signs in at her own organization's help center.
    await request('grace@customer.example', { org: globex, helpCenter: globexHelp });
    expect((await outbox(globex.organizationId)).map((email) => email.to_address)).toEqual([grace.email]);
  });

  it('a malformed email is refused (400) and nothing is written', async () => {
    const before = await writes();
    await expect(request('not an email')).rejects.toMatchObject({ code: 'VALIDATION', issues: [{ path: ['email'] }] });
    expect(await writes()).toEqual(before);
  });

  it('a link expires after 15 minutes', async () => {
    const token = await linkForAda();
    harness.clock.advance(15 * MINUTE);
    expect(await redeem(token)).toBeNull();
    const fresh = await linkForAda();
    harness.clock.advance(15 * MINUTE - 1);
    expect(await redeem(fresh)).not.toBeNull();
  });

  it('a forged token, or a link of another help center, signs no one in and writes nothing', async () => {
    const token = await linkForAda(acmeOther);
    const before = await writes();
    for (const forged of ['', 'short', altered(token), 'A'.repeat(43), `${token}\u0000`]) {
      expect(await redeem(forged)).toBeNull();
    }
    expect(await redeem(token, acmeHelp)).toBeNull();
    expect(await redeemSignInLink(deps, { organizationId: globex.organizationId, helpCenterId: acmeOther.id, token })).toBeNull();
    expect(await writes()).toEqual(before);
    // Still good where it belongs.
    expect(await redeem(token, acmeOther)).not.toBeNull();
  });

  it('a link of a contact deleted since signs no one in', async () => {
    const temp = await makeContact(acme, { firstName: 'Temp', email: 'temp@customer.example' });
    const linkForTemp = async () => {
      await request('temp@customer.example');
      return tokenOf((await outbox(acme.organizationId)).at(-1)?.text_body ?? '');
    };
    const token = await linkForTemp();
    const session = await redeem(await linkForTemp());
    const deleted = await harness.app.inject({
      method: 'DELETE',
      url: `/v1/accounts/contacts/${temp.id}`,
      headers: acme.headers,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await redeem(token)).toBeNull();
    expect(await sessionOf(session?.sessionToken ?? '')).toBeNull();
  });

  it('two concurrent redemptions of one link (two processes on PostgreSQL) start exactly one session', async () => {
    const second = dialect === 'postgres' ? connectPostgres(harness.url as string, 5) : null;
    try {
      for (let round = 0; round < 5; round++) {
        const token = await linkForAda();
        const sessionsBefore = (await writes()).sessions;
        const results = await Promise.all([redeem(token), redeem(token, acmeHelp, second?.db ?? harness.db)]);
        expect(results.filter((result) => result !== null)).toHaveLength(1);
        expect((await writes()).sessions).toBe(sessionsBefore + 1);
      }
    } finally {
      await second?.close();
    }
  });

  it('a session is good only in its help center and organization, for 30 days, until signed out', async () => {
    const session = await redeem(await linkForAda());
    const sessionToken = session?.sessionToken ?? '';
    expect(await sessionOf(sessionToken)).not.toBeNull();
    expect(await sessionOf(sessionToken, acmeOther)).toBeNull();
    expect(await sessionOf(sessionToken, acmeHelp, globex.organizationId)).toBeNull();
    expect(await sessionOf(sessionToken, globexHelp, globex.organizationId)).toBeNull();
    expect(await sessionOf(altered(sessionToken))).toBeNull();
    expect(await sessionOf('forged')).toBeNull();

    harness.clock.advance(30 * 24 * 60 * MINUTE - 1);
    expect(await sessionOf(sessionToken)).not.toBeNull();
    harness.clock.advance(1);
    expect(await sessionOf(sessionToken)).toBeNull();

    harness.clock.set(TEST_NOW);
    const other = (await redeem(await linkForAda()))?.sessionToken ?? '';
    await endContactSession(deps, other);
    expect(await sessionOf(other)).toBeNull();
    await expect(endContactSession(deps, other)).resolves.toBeUndefined();
    await expect(endContactSession(deps, 'forged')).resolves.toBeUndefined();
  });

  it('records activity at most once an hour', async () => {
    const sessionToken = (await redeem(await linkForAda()))?.sessionToken ?? '';
    const seen = async () =>
      (
        await harness.db
          .selectFrom('help_center_contact_sessions')
          .select('last_seen_at')
          .orderBy('created_at', 'desc')
          .orderBy('token_hash')
          .execute()
      ).map((row) => new Date(row.last_seen_at).toISOString());
    const before = await seen();
    harness.clock.advance(30 * MINUTE);
    await sessionOf(sessionToken);
    expect(await seen()).toEqual(before);
    harness.clock.advance(31 * MINUTE);
    await sessionOf(sessionToken);
    expect(await seen()).toContain('2026-01-15T10:01:00.000Z');
  });

  it(`sends at most ${LINK_REQUESTS_PER_EMAIL} links per email per 15 minutes; past it nothing is sent and the answer is the same`, async () => {
    const before = (await outbox(acme.organizationId)).length;
    for (let n = 0; n < LINK_REQUESTS_PER_EMAIL + 3; n++) {
      await expect(request(n % 2 ? 'ada@customer.example' : 'ADA@customer.example')).resolves.toBeUndefined();
    }
    expect(await outbox(acme.organizationId)).toHaveLength(before + LINK_REQUESTS_PER_EMAIL);
    harness.clock.advance(15 * MINUTE);
    await request('ada@customer.example');
    expect(await outbox(acme.organizationId)).toHaveLength(before + LINK_REQUESTS_PER_EMAIL + 1);
  });

  it(`answers at most ${LINK_REQUESTS_PER_ADDRESS} link requests per client address per 15 minutes`, async () => {
    const before = (await outbox(acme.organizationId)).length;
    for (let n = 0; n < LINK_REQUESTS_PER_ADDRESS; n++) {
      await request(`unknown${n}@customer.example`, { from: '198.51.100.7' });
    }
    await request('ada@customer.example', { from: '198.51.100.7' });
    expect(await outbox(acme.organizationId)).toHaveLength(before);
    // Another address still gets Ada her link.
    await request('ada@customer.example', { from: '198.51.100.8' });
    expect(await outbox(acme.organizationId)).toHaveLength(before + 1);
  });
});
