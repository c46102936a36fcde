import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp, testConfig } from '../../../test/harness.js';
import { verifyMailbox } from '../../../test/inbound.js';
import type { Mailbox } from './mailbox.service.js';
import { mailboxDnsSetup } from './mailbox-dns-setup.js';
import { UNVERIFIED_TEST_EMAIL } from './mailbox-test-email.service.js';

const DKIM_KEY = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const DKIM_PUBLIC = createPublicKey(DKIM_KEY).export({ type: 'spki', format: 'der' }).toString('base64');

describe.each(DIALECTS)('setting a mailbox up on %s: DNS records and a test email', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let support: TestTeam;
  let sequence = 0;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, {
      env: {
        PUBLIC_BASE_URL: 'https://help.switchboard.example',
        SMTP_URL: 'smtp://relay.mail.example:587',
        SMTP_INBOUND_PORT: '2525',
        DKIM_DOMAIN: 'acme.test',
        DKIM_SELECTOR: 'sb2026',
        DKIM_PRIVATE_KEY: DKIM_KEY,
      },
    });
    acme = await makeOrganization(harness, { adminEmail: `lead-${dialect}@acme.test` });
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId);
    support = await makeTeam(harness, acme, { name: 'Support' });
  });
  afterAll(async () => {
    await harness.close();
  });

  const send = (method: 'POST' | 'GET', url: string, payload?: unknown, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const createMailbox = async (overrides: Record<string, unknown> = {}) => {
    const response = await send('POST', '/v1/mailboxes', {
      address: `help${++sequence}-${dialect}@acme.test`,
      teamId: support.teamId,
      displayName: 'Acme Help',
      delivery: 'smtp',
      ...overrides,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Mailbox;
  };
  const outboxCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('email_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('dedupe_key', 'like', 'mailbox-test:%')
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("gives the MX, SPF, DKIM and verification records from the instance's configuration", async () => {
    const mailbox = await createMailbox();
    const response = await send('GET', `/v1/mailboxes/${mailbox.id}/dns`);
    expect(response.statusCode, response.body).toBe(200);
    const setup = response.json().data;
    expect(setup.domain).toBe('acme.test');
    expect(setup.records.map((record: { purpose: string }) => record.purpose)).toEqual(['mx', 'spf', 'dkim', 'verification']);
    expect(setup.records[0]).toMatchObject({ type: 'MX', name: 'acme.test', value: 'help.switchboard.example', priority: 10 });
    expect(setup.records[1]).toMatchObject({ type: 'TXT', name: 'acme.test', value: 'v=spf1 a:relay.mail.example ~all' });
    expect(setup.records[2]).toMatchObject({
      type: 'TXT',
      name: 'sb2026._domainkey.acme.test',
      value: `v=DKIM1; k=rsa; p=${DKIM_PUBLIC}`,
      priority: null,
    });
    expect(setup.records[3]).toMatchObject({ type: 'TXT', ...mailbox.verification.dnsRecord });
    expect(setup.notes).toEqual([expect.stringMatching(/^MX: mail servers deliver on port 25.*port 2525/)]);

    // Once verified, the verification record is no longer asked for; an IMAP mailbox keeps its provider's MX.
    await verifyMailbox(harness, mailbox.id);
    const verified = (await send('GET', `/v1/mailboxes/${mailbox.id}/dns`)).json().data;
    expect(verified.records.map((record: { purpose: string }) => record.purpose)).toEqual(['mx', 'spf', 'dkim']);
    expect(verified.notes).toContainEqual(expect.stringMatching(/^Verification: the address is verified/));
  });

  it('answers 403 to members and 404 for a mailbox of another organization or none', async () => {
    const mailbox = await createMailbox();
    expect((await send('GET', `/v1/mailboxes/${mailbox.id}/dns`, undefined, member.headers)).statusCode).toBe(403);
    expect((await send('GET', `/v1/mailboxes/${mailbox.id}/dns`, undefined, globex.headers)).statusCode).toBe(404);
    expect((await send('GET', `/v1/mailboxes/${harness.ids.ulid()}/dns`)).statusCode).toBe(404);
    expect((await send('GET', '/v1/mailboxes/nope/dns')).statusCode).toBe(400);
  });

  it("queues a test email from a verified mailbox's address to the caller, as the outbox sends every email", async () => {
    const mailbox = await createMailbox({ displayName: 'Acme Billing' });
    await verifyMailbox(harness, mailbox.id);
    const response = await send('POST', `/v1/mailboxes/${mailbox.id}/test`);
    expect(response.statusCode, response.body).toBe(201);
    const queued = response.json().data;
    expect(queued).toEqual({
      id: expect.any(String),
      to: `lead-${dialect}@acme.test`,
      from: `Acme Billing <${mailbox.address}>`,
      subject: 'Test email from Acme Billing',
      status: 'pending',
      createdAt: TEST_NOW,
    });
    const row = await harness.db
      .selectFrom('email_outbox')
      .select(['organization_id', 'to_address', 'from_address', 'from_name', 'status', 'message_id', 'text_body'])
      .where('id', '=', queued.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      organization_id: acme.organizationId,
      to_address: `lead-${dialect}@acme.test`,
      from_address: mailbox.address,
      from_name: 'Acme Billing',
      status: 'pending',
      message_id: expect.stringMatching(/^<\w+@acme\.test>$/),
    });
    expect(row.text_body).toContain(`Acme Billing <${mailbox.address}>`);
    // It is an outbox message like any other, listed where failures show.
    const outbox = (await send('GET', '/v1/outbox?limit=100')).json().data;
    expect(outbox.map((message: { id: string }) => message.id)).toContain(queued.id);

    const elsewhere = await send('POST', `/v1/mailboxes/${mailbox.id}/test`, { to: 'Someone@Example.com' });
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json().data.to).toBe('someone@example.com');
  });

  it('refuses an unverified mailbox, members, bad input and other organizations, and queues nothing', async () => {
    const unverified = await createMailbox();
    const verified = await createMailbox();
    await verifyMailbox(harness, verified.id);
    const before = await outboxCount();

    const refused = await send('POST', `/v1/mailboxes/${unverified.id}/test`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(UNVERIFIED_TEST_EMAIL);
    expect((await send('POST', `/v1/mailboxes/${verified.id}/test`, {}, member.headers)).statusCode).toBe(403);
    expect((await send('POST', `/v1/mailboxes/${verified.id}/test`, {}, globex.headers)).statusCode).toBe(404);
    expect((await send('POST', `/v1/mailboxes/${harness.ids.ulid()}/test`)).statusCode).toBe(404);
    for (const [body, message] of [
      [{ to: 'not an address' }, /^to /],
      [{ to: `${'x'.repeat(250)}@a.test` }, /^to /],
      [{ cc: 'someone@example.com' }, /cc/],
      [[], /body/],
    ] as const) {
      const response = await send('POST', `/v1/mailboxes/${verified.id}/test`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).toMatch(message);
    }
    expect(await outboxCount()).toBe(before);
  });
});

describe('DNS set-up records an instance cannot give', () => {
  const mailbox = (delivery: 'smtp' | 'imap', dnsRecord: Mailbox['verification']['dnsRecord'] = null) =>
    ({
      address: 'help@support.globex.test',
      delivery,
      verification: { dnsRecord },
    }) as Mailbox;

  it('says there is no DKIM record without signing, no SPF without an outgoing server, and no MX change for IMAP', () => {
    const setup = mailboxDnsSetup(testConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:3000' }), mailbox('imap'));
    expect(setup.domain).toBe('support.globex.test');
    expect(setup.records).toEqual([]);
    expect(setup.notes).toEqual([
      expect.stringMatching(/^MX: none to change/),
      expect.stringMatching(/^SPF: this instance has no outgoing mail server \(SMTP_URL is unset\)/),
      expect.stringMatching(/^DKIM: this instance does not sign outgoing mail/),
      expect.stringMatching(/^Verification: the address is verified/),
    ]);
  });

  it('names the host an MX needs when the instance is reached at an address, and an SPF ip4 for a relay at one', () => {
    const setup = mailboxDnsSetup(
      testConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:3000', SMTP_URL: 'smtp://192.0.2.7:25' }),
      mailbox('smtp', { name: '_switchboard.support.globex.test', type: 'TXT', value: 'switchboard-verification=abc' }),
    );
    expect(setup.records.map((record) => [record.purpose, record.value])).toEqual([
      ['mx', '127.0.0.1'],
      ['spf', 'v=spf1 ip4:192.0.2.7 ~all'],
      ['verification', 'switchboard-verification=abc'],
    ]);
    expect(setup.notes).toEqual([
      expect.stringMatching(/^MX: an MX record names a host, not an address/),
      expect.stringMatching(/^MX: this instance's SMTP receiver is off/),
      expect.stringMatching(/^DKIM: this instance does not sign/),
    ]);
  });
});
