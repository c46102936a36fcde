import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { type DnsServer, startDnsServer } from '../../../test/dns-server.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { confirmVerification, verificationTokenOf } from '../../../test/inbound.js';
import { migrations } from '../../db/migrations/index.js';

const DAY_MS = 86_400_000;
const MIGRATION = '2026-11-28T2100_mailbox_verification';

describe.each(DIALECTS)('mailbox verification on %s', (dialect) => {
  let harness: TestApp;
  let dns: DnsServer;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let support: TestTeam;
  let globexTeam: TestTeam;
  let sequence = 0;

  beforeAll(async () => {
    dns = await startDnsServer();
    harness = await buildTestApp(dialect, { env: { MAILBOX_DNS_SERVERS: dns.address } });
    acme = await makeOrganization(harness, { name: 'Acme <b>Corp</b>' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    member = await makeUser(harness, acme.organizationId);
    support = await makeTeam(harness, acme, { name: 'Support' });
    globexTeam = await makeTeam(harness, globex);
  });
  beforeEach(() => harness.clock.set(TEST_NOW));
  afterAll(async () => {
    await harness.close();
    await dns.close();
  });

  const send = (method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const address = (domain = 'acme.test') => `desk${++sequence}-${dialect}@${domain}`;
  const create = async (mailboxAddress: string, org = acme, teamId = support.teamId) => {
    const response = await send(
      'POST',
      '/v1/mailboxes',
      { address: mailboxAddress, teamId, displayName: 'Desk', delivery: 'smtp' },
      org.headers,
    );
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const read = async (id: string, org = acme) => (await send('GET', `/v1/mailboxes/${id}`, undefined, org.headers)).json().data;
  const openPage = (token: string) => harness.app.inject({ method: 'GET', url: `/v1/mailbox-verification?token=${token}` });
  const linkEmails = (to: string) =>
    harness.db
      .selectFrom('email_outbox')
      .select(['to_address', 'subject', 'text_body', 'from_address', 'organization_id'])
      .where('to_address', '=', to)
      .where('dedupe_key', 'like', 'mailbox-verification:%')
      .execute();

  it("leaves a new mailbox unverified and emails a link to its address from Switchboard's own sender", async () => {
    const desk = address();
    const mailbox = await create(desk);
    expect(mailbox.verification).toMatchObject({ status: 'unverified', method: null, verifiedAt: null, linkSentAt: TEST_NOW });
    const [email] = await linkEmails(desk);
    expect(email).toMatchObject({ to_address: desk, from_address: null, organization_id: acme.organizationId });
    expect(email?.subject).toBe(`Confirm ${desk} as a support address of Acme <b>Corp</b>`);
    expect(email?.text_body).toContain('http://localhost:3000/v1/mailbox-verification?token=');
    // The token is kept only as its hash.
    const token = await verificationTokenOf(harness, mailbox.id);
    const stored = await harness.db
      .selectFrom('mailbox_verification_links')
      .selectAll()
      .where('mailbox_id', '=', mailbox.id)
      .execute();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('opens a page that changes nothing; its button verifies the mailbox once', async () => {
    const desk = address();
    const mailbox = await create(desk);
    const token = await verificationTokenOf(harness, mailbox.id);
    for (let visit = 0; visit < 2; visit++) {
      const page = await openPage(token);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers).toMatchObject({
        'cache-control': 'no-store',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      });
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.body).toContain(`Confirm ${desk}`);
      expect(page.body).toContain('Acme &lt;b&gt;Corp&lt;/b&gt; asks to use');
      expect(page.body).not.toContain('<b>Corp');
      expect(page.body).toContain(`<form method="post" action="/v1/mailbox-verification">`);
      expect(page.body).toContain(`name="token" value="${token}"`);
    }
    expect((await read(mailbox.id)).verification.status).toBe('unverified');
    harness.clock.advance(60_000);
    const confirmed = await confirmVerification(harness, token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain(`${desk} is now a support address of Acme &lt;b&gt;Corp&lt;/b&gt;`);
    expect((await read(mailbox.id)).verification).toEqual({
      status: 'verified',
      method: 'link',
      verifiedAt: '2026-01-15T09:01:00.000Z',
      linkSentAt: null,
      linkExpiresAt: null,
      dnsRecord: null,
    });
    const again = await openPage(token);
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Nothing more to do');
    expect(again.body).not.toContain('<form');
  });

  it('refuses unknown, replaced and expired links with a page that says so', async () => {
    for (const url of [
      '/v1/mailbox-verification',
      '/v1/mailbox-verification?token=nope',
      `/v1/mailbox-verification?token=${'A'.repeat(43)}`,
    ]) {
      const page = await harness.app.inject({ url });
      expect(page.statusCode, url).toBe(404);
      expect(page.body).toContain('This link is not valid');
    }
    expect((await confirmVerification(harness, 'A'.repeat(43))).statusCode).toBe(404);
    // Only the page's form confirms; any other body is refused in the platform's shape.
    const json = await harness.app.inject({
      method: 'POST',
      url: '/v1/mailbox-verification',
      payload: { token: 'A'.repeat(43) },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
    // Link-tracking parameters a mail client adds do not break the link.
    const mailbox = await create(address());
    const first = await verificationTokenOf(harness, mailbox.id);
    expect((await harness.app.inject({ url: `/v1/mailbox-verification?token=${first}&utm_source=mail` })).statusCode).toBe(200);
    const resent = await send('POST', `/v1/mailboxes/${mailbox.id}/verification/link`);
    expect(resent.statusCode, resent.body).toBe(200);
    const second = await verificationTokenOf(harness, mailbox.id);
    expect(second).not.toBe(first);
    for (const response of [await openPage(first), await confirmVerification(harness, first)]) {
      expect(response.statusCode).toBe(410);
      expect(response.body).toContain('This link has expired');
    }
    harness.clock.advance(3 * DAY_MS);
    expect((await confirmVerification(harness, second)).statusCode).toBe(410);
    expect((await read(mailbox.id)).verification.status).toBe('unverified');
  });

  it('binds a link to the address it went to: a new address is unverified again and gets its own link', async () => {
    const mailbox = await create(address());
    const old = await verificationTokenOf(harness, mailbox.id);
    const moved = await send('PATCH', `/v1/mailboxes/${mailbox.id}`, { address: address() });
    expect(moved.json().data.verification).toMatchObject({ status: 'unverified', linkSentAt: TEST_NOW });
    const refused = await confirmVerification(harness, old);
    expect(refused.statusCode).toBe(410);
    expect(refused.body).toContain('was changed or deleted');
    const current = await verificationTokenOf(harness, mailbox.id);
    expect((await confirmVerification(harness, current)).statusCode).toBe(200);
    // A verified mailbox given another address stops receiving and sending until that one is proved.
    const again = await send('PATCH', `/v1/mailboxes/${mailbox.id}`, { address: address() });
    expect(again.json().data.verification.status).toBe('unverified');
    const pending = await verificationTokenOf(harness, mailbox.id);
    expect((await send('DELETE', `/v1/mailboxes/${mailbox.id}`)).statusCode).toBe(200);
    expect((await openPage(pending)).statusCode).toBe(410);
  });

  it('lets two organizations claim an address; the first to prove it has it, and the other cannot take it', async () => {
    // A domain of its own: our record, published below, verifies the domain for us.
    const desk = address(`${dialect}-claims.acme.test`);
    const ours = await create(desk);
    const theirs = await create(desk, globex, globexTeam.teamId);
    const ourToken = await verificationTokenOf(harness, ours.id);
    expect((await confirmVerification(harness, await verificationTokenOf(harness, theirs.id))).statusCode).toBe(200);
    for (const response of [await openPage(ourToken), await confirmVerification(harness, ourToken)]) {
      expect(response.statusCode).toBe(409);
      expect(response.body).toContain('verified by another organization');
    }
    const resend = await send('POST', `/v1/mailboxes/${ours.id}/verification/link`);
    expect(resend.statusCode).toBe(409);
    expect(resend.json().message).toBe('This address is verified by another organization');
    // Our own domain record does not take the address from them either.
    const record = (await read(ours.id)).verification.dnsRecord;
    dns.setTxt(record.name, [record.value]);
    try {
      const checked = await send('POST', `/v1/mailboxes/${ours.id}/verification/dns`);
      expect(checked.statusCode).toBe(409);
    } finally {
      dns.setTxt(record.name, []);
    }
    expect((await read(ours.id)).verification.status).toBe('unverified');
    expect((await read(theirs.id, globex)).verification).toMatchObject({ status: 'verified', method: 'link' });
  });

  it('sends at most 5 links a day to one address, then answers 429 with retry-after', async () => {
    const desk = address();
    const mailbox = await create(desk);
    for (let resend = 0; resend < 4; resend++) {
      harness.clock.advance(60_000);
      expect((await send('POST', `/v1/mailboxes/${mailbox.id}/verification/link`)).statusCode).toBe(200);
    }
    // Deleting the mailbox and making it again does not start the count over.
    expect((await send('DELETE', `/v1/mailboxes/${mailbox.id}`)).statusCode).toBe(200);
    const again = await create(desk);
    expect(again.verification.linkSentAt).toBeNull();
    const limited = await send('POST', `/v1/mailboxes/${again.id}/verification/link`);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe(String(DAY_MS / 1000 - 4 * 60));
    expect(await linkEmails(desk)).toHaveLength(5);
    harness.clock.advance(DAY_MS);
    expect((await send('POST', `/v1/mailboxes/${again.id}/verification/link`)).statusCode).toBe(200);
  });

  it("lets only admins ask for a link or a DNS check; another organization's mailbox is a 404", async () => {
    const mailbox = await create(address());
    for (const path of ['link', 'dns']) {
      const url = `/v1/mailboxes/${mailbox.id}/verification/${path}`;
      expect((await send('POST', url, undefined, member.headers)).statusCode, path).toBe(403);
      const foreign = await send('POST', url, undefined, globex.headers);
      expect(foreign.statusCode, path).toBe(404);
      expect(foreign.json().message).toBe('Mailbox not found!');
    }
    const verified = await create(address());
    await confirmVerification(harness, await verificationTokenOf(harness, verified.id));
    expect((await send('POST', `/v1/mailboxes/${verified.id}/verification/link`)).statusCode).toBe(409);
  });

  it("verifies by the domain's TXT record: its mailboxes, and those made on it later, for that organization only", async () => {
    const domain = `${dialect}-dns.acme.test`;
    const first = await create(address(domain));
    const second = await create(address(domain));
    const record = (await read(first.id)).verification.dnsRecord;
    expect(record).toEqual({
      name: `_switchboard.${domain}`,
      type: 'TXT',
      value: expect.stringMatching(/^switchboard-verification=[\w-]{43}$/),
    });
    expect((await read(second.id)).verification.dnsRecord).toEqual(record);
    const theirs = await create(address(domain), globex, globexTeam.teamId);
    const theirRecord = (await read(theirs.id, globex)).verification.dnsRecord;
    expect(theirRecord.name).toBe(record.name);
    expect(theirRecord.value).not.toBe(record.value);

    const missing = await send('POST', `/v1/mailboxes/${first.id}/verification/dns`);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toContain(`No TXT record _switchboard.${domain} with the value ${record.value}`);
    dns.setTxt(record.name, ['v=spf1 -all', theirRecord.value]);
    expect((await send('POST', `/v1/mailboxes/${first.id}/verification/dns`)).statusCode).toBe(422);
    expect((await read(first.id)).verification.status).toBe('unverified');

    dns.setTxt(record.name, ['v=spf1 -all', record.value]);
    const found = await send('POST', `/v1/mailboxes/${first.id}/verification/dns`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.verification).toMatchObject({ status: 'verified', method: 'dns', verifiedAt: TEST_NOW });
    expect((await read(second.id)).verification).toMatchObject({ status: 'verified', method: 'dns' });
    expect(dns.asked).toContain(record.name.toLowerCase());
    // Their claim on the domain is theirs to prove: our record verifies nothing of theirs.
    expect((await send('POST', `/v1/mailboxes/${theirs.id}/verification/dns`, undefined, globex.headers)).statusCode).toBe(422);
    expect((await read(theirs.id, globex)).verification.status).toBe('unverified');

    // A mailbox made later on the domain is verified at once, and no link is sent.
    const later = address(domain);
    expect((await create(later)).verification).toMatchObject({ status: 'verified', method: 'dns' });
    expect(await linkEmails(later)).toEqual([]);
    dns.setTxt(record.name, []);
  });

  it('answers 502 when the DNS lookup fails', async () => {
    const mailbox = await create(address(`${dialect}-failing.acme.test`));
    const record = (await read(mailbox.id)).verification.dnsRecord;
    dns.failFor(record.name);
    try {
      const checked = await send('POST', `/v1/mailboxes/${mailbox.id}/verification/dns`);
      expect(checked.statusCode).toBe(502);
      expect(checked.json().message).toBe(`The DNS lookup of ${record.name} failed (ESERVFAIL): try again later`);
    } finally {
      dns.setTxt(record.name, []);
    }
    expect((await read(mailbox.id)).verification.status).toBe('unverified');
  });

  it('keeps the mailboxes that predate verification working: the migration marks them verified', async () => {
    const other = await buildTestApp(dialect);
    try {
      const org = await makeOrganization(other);
      const team = await makeTeam(other, org);
      const migration = migrations[MIGRATION];
      await migration?.down?.(other.db);
      const at = other.clock.now().toISOString();
      await other.db
        .insertInto('mailboxes')
        .values({
          id: other.ids.ulid(),
          organization_id: org.organizationId,
          team_id: team.teamId,
          address: 'old@acme.test',
          display_name: 'Old',
          delivery: 'smtp',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await migration?.up(other.db);
      const [mailbox] = (await other.app.inject({ url: '/v1/mailboxes', headers: org.headers })).json().data;
      expect(mailbox.verification).toEqual({
        status: 'verified',
        method: 'existing',
        verifiedAt: at,
        linkSentAt: null,
        linkExpiresAt: null,
        dnsRecord: null,
      });
    } finally {
      await other.close();
    }
  });
});
