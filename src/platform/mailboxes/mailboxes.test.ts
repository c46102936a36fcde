import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { verifyMailbox } from '../../../test/inbound.js';
import { envelopePage, expectCursorPagedList } from '../../../test/platform-list-pages.js';
import { createSecretBox, decodeSecretKey } from '../../lib/secret-box.js';
import { imapPasswordAad } from './mailbox.service.js';

const SECRET_KEY = '3c'.repeat(32);

describe.each(DIALECTS)('mailboxes on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let support: TestTeam;
  let globexTeam: TestTeam;
  let sequence = 0;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { SECRET_KEY, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1:1143' } });
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId);
    support = await makeTeam(harness, acme, { name: 'Support' });
    globexTeam = await makeTeam(harness, globex);
  });
  afterAll(async () => {
    await harness.close();
  });

  const send = (method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, payload?: unknown, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const address = () => `support${++sequence}-${dialect}@acme.test`;
  const create = (overrides: Record<string, unknown> = {}, headers = acme.headers) =>
    send(
      'POST',
      '/v1/mailboxes',
      { address: address(), teamId: support.teamId, displayName: 'Acme Support', delivery: 'smtp', ...overrides },
      headers,
    );
  const imap = (overrides: Record<string, unknown> = {}) => ({
    host: 'imap.example.com',
    username: 'support@acme.test',
    password: 'hunter2-imap',
    ...overrides,
  });
  const mailboxCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('mailboxes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates an smtp mailbox: address lower-cased, no IMAP settings, readable by members', async () => {
    const response = await create({ address: `Help.${dialect}@ACME.test`, displayName: '  Acme Help  ' });
    expect(response.statusCode, response.body).toBe(201);
    const mailbox = response.json().data;
    expect(mailbox).toEqual({
      id: expect.any(String),
      address: `help.${dialect}@acme.test`,
      teamId: support.teamId,
      displayName: 'Acme Help',
      delivery: 'smtp',
      isDefault: false,
      imap: null,
      verification: {
        status: 'unverified',
        method: null,
        verifiedAt: null,
        linkSentAt: TEST_NOW,
        linkExpiresAt: '2026-01-18T09:00:00.000Z',
        dnsRecord: {
          name: '_switchboard.acme.test',
          type: 'TXT',
          value: expect.stringMatching(/^switchboard-verification=\S{43}$/),
        },
      },
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    const read = await send('GET', `/v1/mailboxes/${mailbox.id}`, undefined, member.headers);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(mailbox);
    const row = await harness.db
      .selectFrom('mailboxes')
      .select('created_by_id')
      .where('id', '=', mailbox.id)
      .executeTakeFirstOrThrow();
    expect(row.created_by_id).toBe(acme.userId);
  });

  it('only organization admins create, change and delete mailboxes', async () => {
    const before = await mailboxCount();
    expect((await create({}, member.headers)).statusCode).toBe(403);
    const mailbox = (await create()).json().data;
    expect((await send('PATCH', `/v1/mailboxes/${mailbox.id}`, { displayName: 'Mine' }, member.headers)).statusCode).toBe(403);
    expect((await send('DELETE', `/v1/mailboxes/${mailbox.id}`, undefined, member.headers)).statusCode).toBe(403);
    expect(await mailboxCount()).toBe(before + 1);
    expect((await send('GET', `/v1/mailboxes/${mailbox.id}`)).json().data.displayName).toBe('Acme Support');
  });

  it('refuses bad input with a 400 naming it, and writes nothing', async () => {
    const before = await mailboxCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ address: 'not an address' }, /address/],
      [{ address: 'support+bill-1.0123456789ab@acme.test' }, /reply address/],
      [{ displayName: '   ' }, /displayName/],
      [{ displayName: '' }, /displayName/],
      [{ delivery: 'pop3' }, /delivery/],
      [{ teamId: 'nope' }, /teamId/],
      [{ delivery: 'imap' }, /imap settings are required/],
      [{ delivery: 'smtp', imap: imap() }, /only for delivery imap/],
      [{ delivery: 'imap', imap: imap({ host: '10.0.0.7' }) }, /private or reserved/],
      [{ delivery: 'imap', imap: imap({ host: '127.0.0.1' }) }, /private or reserved/],
      [{ delivery: 'imap', imap: imap({ host: 'localhost' }) }, /private or reserved/],
      [{ delivery: 'imap', imap: imap({ host: '[::1]' }) }, /private or reserved/],
      [{ delivery: 'imap', imap: imap({ host: 'bad host!' }) }, /host/],
      [{ delivery: 'imap', imap: imap({ port: 0 }) }, /port/],
      [{ delivery: 'imap', imap: imap({ port: 65536 }) }, /port/],
      [{ delivery: 'imap', imap: imap({ password: undefined }) }, /password/],
      [{ delivery: 'imap', imap: imap({ username: '' }) }, /username/],
      [{ delivery: 'imap', imap: imap({ folder: 'INBOX', processedFolder: 'INBOX' }) }, /processedFolder/],
      [{ delivery: 'imap', imap: imap({ folder: 'In\nbox' }) }, /folder/],
      [{ delivery: 'imap', imap: imap({ secure: true }) }, /secure/],
      [{ owner: 'me' }, /owner/],
    ];
    for (const [overrides, message] of cases) {
      const response = await create(overrides);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().message, JSON.stringify(overrides)).toMatch(message);
    }
    expect(await mailboxCount()).toBe(before);
  });

  it("answers 404 for another organization's team and for a missing one", async () => {
    const before = await mailboxCount();
    for (const teamId of [globexTeam.teamId, harness.ids.ulid()]) {
      const response = await create({ teamId });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Team not found!');
    }
    expect(await mailboxCount()).toBe(before);
  });

  it('takes an address once per organization (409), in any case; across organizations, once verified', async () => {
    const taken = address();
    const mine = (await create({ address: taken })).json().data;
    const again = await create({ address: taken.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A mailbox with this address already exists!');
    const other = (await create()).json().data;
    expect((await send('PATCH', `/v1/mailboxes/${other.id}`, { address: taken })).statusCode).toBe(409);
    // An unverified claim blocks no other organization; a verified address blocks every other one.
    const claim = await create({ address: taken, teamId: globexTeam.teamId }, globex.headers);
    expect(claim.statusCode).toBe(201);
    await verifyMailbox(harness, mine.id);
    const elsewhere = await create({ address: `other-${taken}`, teamId: globexTeam.teamId }, globex.headers);
    expect((await create({ address: taken, teamId: globexTeam.teamId }, globex.headers)).statusCode).toBe(409);
    const moved = await send('PATCH', `/v1/mailboxes/${elsewhere.json().data.id}`, { address: taken }, globex.headers);
    expect(moved.statusCode).toBe(409);
  });

  it('keeps one default mailbox per organization: a new default unsets the old one', async () => {
    const first = (await create({ isDefault: true })).json().data;
    const theirs = (await create({ isDefault: true, teamId: globexTeam.teamId }, globex.headers)).json().data;
    const second = (await create({ isDefault: true })).json().data;
    expect(second.isDefault).toBe(true);
    expect((await send('GET', `/v1/mailboxes/${first.id}`)).json().data.isDefault).toBe(false);
    const back = await send('PATCH', `/v1/mailboxes/${first.id}`, { isDefault: true });
    expect(back.json().data.isDefault).toBe(true);
    expect((await send('GET', `/v1/mailboxes/${second.id}`)).json().data.isDefault).toBe(false);
    expect((await send('GET', `/v1/mailboxes/${theirs.id}`, undefined, globex.headers)).json().data.isDefault).toBe(true);
    const defaults = await harness.db
      .selectFrom('mailboxes')
      .select('id')
      .where('organization_id', '=', acme.organizationId)
      .where('is_default', '=', true)
      .execute();
    expect(defaults.map((row) => row.id)).toEqual([first.id]);
    expect((await send('PATCH', `/v1/mailboxes/${first.id}`, { isDefault: false })).json().data.isDefault).toBe(false);
  });

  it('stores the IMAP password sealed and never shows it', async () => {
    const response = await create({
      delivery: 'imap',
      imap: imap({ host: '127.0.0.1', port: 1143, tls: false, folder: 'Support', processedFolder: 'Support/Done' }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const mailbox = response.json().data;
    expect(mailbox.imap).toEqual({
      host: '127.0.0.1',
      port: 1143,
      tls: false,
      username: 'support@acme.test',
      folder: 'Support',
      processedFolder: 'Support/Done',
      lastPolledAt: null,
      nextPollAt: null,
      lastError: null,
    });
    for (const body of [
      response.body,
      (await send('GET', `/v1/mailboxes/${mailbox.id}`)).body,
      (await send('GET', '/v1/mailboxes?limit=100')).body,
    ]) {
      expect(body).not.toContain('hunter2');
      expect(body).not.toContain('password');
    }
    const row = await harness.db
      .selectFrom('mailboxes')
      .select('imap_password_encrypted')
      .where('id', '=', mailbox.id)
      .executeTakeFirstOrThrow();
    expect(row.imap_password_encrypted).not.toContain('hunter2');
    const box = createSecretBox(decodeSecretKey(SECRET_KEY));
    expect(box.open(row.imap_password_encrypted ?? '', imapPasswordAad(mailbox.id))).toBe('hunter2-imap');
    expect(box.open(row.imap_password_encrypted ?? '', imapPasswordAad(harness.ids.ulid()))).toBeNull();
  });

  it('defaults IMAP to TLS on 993 and INBOX; a new host needs the password again; smtp drops the settings', async () => {
    const mailbox = (await create({ delivery: 'imap', imap: imap() })).json().data;
    expect(mailbox.imap).toMatchObject({
      host: 'imap.example.com',
      port: 993,
      tls: true,
      folder: 'INBOX',
      processedFolder: null,
    });
    const url = `/v1/mailboxes/${mailbox.id}`;
    const moved = await send('PATCH', url, { imap: { host: 'imap.other.example' } });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toMatch(/password is required/);
    const renamed = await send('PATCH', url, { imap: { username: 'someone-else' } });
    expect(renamed.statusCode).toBe(400);
    const plain = await send('PATCH', url, { imap: { tls: false, port: 1143 } });
    expect(plain.json().data.imap).toMatchObject({ tls: false, port: 1143 });
    const folder = await send('PATCH', url, { imap: { folder: 'Support', processedFolder: 'Done' } });
    expect(folder.statusCode, folder.body).toBe(200);
    expect(folder.json().data.imap).toMatchObject({
      host: 'imap.example.com',
      tls: false,
      port: 1143,
      folder: 'Support',
      processedFolder: 'Done',
    });
    const rehosted = await send('PATCH', url, { imap: { host: 'imap.other.example', password: 'new-secret', tls: false } });
    expect(rehosted.json().data.imap).toMatchObject({ host: 'imap.other.example', port: 143, tls: false });
    const smtp = await send('PATCH', url, { delivery: 'smtp' });
    expect(smtp.statusCode).toBe(200);
    expect(smtp.json().data).toMatchObject({ delivery: 'smtp', imap: null });
    const row = await harness.db
      .selectFrom('mailboxes')
      .select(['imap_host', 'imap_password_encrypted'])
      .where('id', '=', mailbox.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ imap_host: null, imap_password_encrypted: null });
    const back = await send('PATCH', url, { delivery: 'imap', imap: { host: 'imap.example.com', username: 'u' } });
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toMatch(/password/);
    const withImap = await send('PATCH', url, { delivery: 'smtp', imap: { host: 'imap.example.com' } });
    expect(withImap.statusCode).toBe(400);
  });

  it('changes the team only to one of the organization', async () => {
    const mailbox = (await create()).json().data;
    const other = await makeTeam(harness, acme);
    expect((await send('PATCH', `/v1/mailboxes/${mailbox.id}`, { teamId: globexTeam.teamId })).statusCode).toBe(404);
    const moved = await send('PATCH', `/v1/mailboxes/${mailbox.id}`, { teamId: other.teamId, displayName: 'Other' });
    expect(moved.json().data).toMatchObject({ teamId: other.teamId, displayName: 'Other' });
  });

  it("answers 404 for another organization's mailbox on every route, and deletes its own", async () => {
    const mailbox = (await create()).json().data;
    for (const [method, payload] of [['GET'], ['PATCH', { displayName: 'x' }], ['DELETE']] as const) {
      const response = await send(method, `/v1/mailboxes/${mailbox.id}`, payload, globex.headers);
      expect(response.statusCode, method).toBe(404);
      expect(response.json().message).toBe('Mailbox not found!');
    }
    const deleted = await send('DELETE', `/v1/mailboxes/${mailbox.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.id).toBe(mailbox.id);
    expect((await send('GET', `/v1/mailboxes/${mailbox.id}`)).statusCode).toBe(404);
    expect((await send('DELETE', `/v1/mailboxes/${mailbox.id}`)).statusCode).toBe(404);
  });

  it('lists by address in keyset pages, each organization its own', async () => {
    const initech = await makeOrganization(harness);
    const team = await makeTeam(harness, initech);
    const ids: { id: string; address: string }[] = [];
    for (let index = 0; index < 25; index++) {
      const response = await create(
        { address: `desk${String((index * 7919) % 97).padStart(3, '0')}-${dialect}@initech.test`, teamId: team.teamId },
        initech.headers,
      );
      expect(response.statusCode, response.body).toBe(201);
      ids.push({ id: response.json().data.id, address: response.json().data.address });
    }
    const theirs = (
      await harness.db.selectFrom('mailboxes').select('id').where('organization_id', '=', acme.organizationId).execute()
    ).map((row) => row.id);
    await expectCursorPagedList({
      app: harness.app,
      url: '/v1/mailboxes?limit=10',
      headers: initech.headers,
      read: envelopePage,
      expected: [...ids].sort((a, b) => (a.address < b.address ? -1 : 1)).map((entry) => entry.id),
      pageNumbers: true,
      other: { url: '/v1/mailboxes?limit=10', headers: acme.headers, ids: theirs },
    });
  });
});
