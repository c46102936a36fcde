import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { DOVECOT_MISSING, type Dovecot, dovecotInstalled, startDovecot } from '../../../test/dovecot.js';
import { makeOrganization, makeTeam, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { composeMail, inboundDepsOf, inboundEnv, verifyMailbox } from '../../../test/inbound.js';
import { refuseWrites } from '../../../test/refusing-trigger.js';
import { connectPostgres } from '../../db/connect.js';
import { createImapPoller, type ImapPollerOptions, MAX_MESSAGE_ATTEMPTS } from './imap-poller.worker.js';

const LIMIT = 100_000;
const POLL_MS = 60_000;
// Outside CI a machine without Dovecot skips these tests, saying so; CI runs them, and fails without it.
const runs = dovecotInstalled || Boolean(process.env.CI);
if (!runs) {
  console.warn(DOVECOT_MISSING);
}

describe.skipIf(!runs).each(DIALECTS)('IMAP polling against Dovecot on %s', (dialect) => {
  const data = inboundEnv({
    INBOUND_MAX_BYTES: String(LIMIT),
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    IMAP_POLL_MS: String(POLL_MS),
    INBOUND_MAX_PER_SENDER_PER_HOUR: '100000',
  });
  let harness: TestApp;
  let dovecot: Dovecot;
  let acme: TestOrganization;
  let team: TestTeam;
  let sequence = 0;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: data.env });
    dovecot = await startDovecot();
    acme = await makeOrganization(harness);
    team = await makeTeam(harness, acme, { name: 'Support' });
  });
  afterAll(async () => {
    await dovecot?.stop();
    await harness.close();
    data.cleanup();
  });

  const api = async (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object) => {
    const response = await harness.app.inject({ method, url, headers: acme.headers, ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  };
  /** An IMAP mailbox of Acme reading `folder` of the test user, verified (as an unverified one is not polled). */
  const mailbox = async (folder: string, imap: Record<string, unknown> = {}) => {
    const created = await unverifiedMailbox(folder, imap);
    await verifyMailbox(harness, created.id);
    return created;
  };
  const unverifiedMailbox = (folder: string, imap: Record<string, unknown> = {}) =>
    api('POST', '/v1/mailboxes', {
      address: `${folder.toLowerCase()}-${dialect}@acme.test`,
      teamId: team.teamId,
      displayName: folder,
      delivery: 'imap',
      imap: {
        host: '127.0.0.1',
        port: dovecot.port,
        tls: false,
        username: dovecot.user,
        password: dovecot.password,
        folder,
        ...imap,
      },
    });
  const poller = (options: ImapPollerOptions = {}, db = harness.db) => createImapPoller(inboundDepsOf(harness, db), options);
  const message = (overrides: Record<string, unknown> = {}) => {
    const messageId = `<imap-${++sequence}-${dialect}@customer.test>`;
    return {
      messageId,
      raw: composeMail({
        from: 'Sam <sam@customer.test>',
        to: 'support@acme.test',
        subject: `Mail ${sequence}`,
        text: 'Hello over IMAP',
        messageId,
        ...overrides,
      }),
    };
  };
  /** The messages received through a mailbox (the notifications they cause are sent from it too). */
  const rowsOf = (mailboxId: string) =>
    harness.db
      .selectFrom('email_messages')
      .select(['message_id', 'disposition', 'ticket_id', 'comment_id'])
      .where('mailbox_id', '=', mailboxId)
      .where('direction', '=', 'inbound')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  const ticketCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('tickets')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const nextPoll = () => harness.clock.advance(POLL_MS);

  it('files new messages (a reply onto its ticket) and marks them seen; a second poll takes nothing new', async () => {
    const inbox = await mailbox('INBOX');
    const first = message({ subject: 'Broken printer' });
    const reply = message({ subject: 'Re: Broken printer', inReplyTo: first.messageId, text: 'More details.\n\n> quoted' });
    const other = message({ subject: 'Another question' });
    for (const mail of [first, reply, other]) {
      await dovecot.append('INBOX', await mail.raw);
    }
    const tickets = await ticketCount();
    expect(await poller().runOnce()).toBe(1);
    const rows = await rowsOf(inbox.id);
    expect(rows.map((row) => row.disposition)).toEqual(['ticket_created', 'reply', 'ticket_created']);
    expect(rows[1]?.ticket_id).toBe(rows[0]?.ticket_id);
    expect(await ticketCount()).toBe(tickets + 2);
    const [comment] = await api('GET', `/v1/tickets/${rows[0]?.ticket_id}/comments`);
    expect(comment.content).toBe('More details.');
    expect((await dovecot.list('INBOX')).every((entry) => entry.seen)).toBe(true);
    expect((await api('GET', `/v1/mailboxes/${inbox.id}`)).imap).toMatchObject({
      lastError: null,
      lastPolledAt: expect.any(String),
    });

    expect(await poller().runOnce()).toBe(0);
    nextPoll();
    expect(await poller().runOnce()).toBe(1);
    expect(await rowsOf(inbox.id)).toHaveLength(3);

    // A poller that died after the commit, before moving its cursor: the messages come again, and are known.
    await harness.db.updateTable('mailboxes').set({ imap_last_uid: 0 }).where('id', '=', inbox.id).execute();
    nextPoll();
    await poller().runOnce();
    // A new UIDVALIDITY (the folder was recreated): the cursor starts over, and nothing is filed twice.
    await harness.db.updateTable('mailboxes').set({ imap_uid_validity: 1 }).where('id', '=', inbox.id).execute();
    nextPoll();
    await poller().runOnce();
    expect(await rowsOf(inbox.id)).toHaveLength(3);
    expect(await ticketCount()).toBe(tickets + 2);

    const late = message({ subject: 'A late one' });
    await dovecot.append('INBOX', await late.raw);
    nextPoll();
    await poller().runOnce();
    expect((await rowsOf(inbox.id)).map((row) => row.disposition)).toHaveLength(4);
    const cursor = await harness.db
      .selectFrom('mailboxes')
      .select('imap_last_uid')
      .where('id', '=', inbox.id)
      .executeTakeFirstOrThrow();
    expect(Number(cursor.imap_last_uid)).toBe(Math.max(...(await dovecot.list('INBOX')).map((entry) => entry.uid)));
  });

  it('moves taken messages to the processed folder, creating it', async () => {
    const support = await mailbox('Support', { processedFolder: 'Processed' });
    for (let index = 0; index < 2; index++) {
      await dovecot.append('Support', await message().raw);
    }
    nextPoll();
    await poller().runOnce();
    expect((await rowsOf(support.id)).map((row) => row.disposition)).toEqual(['ticket_created', 'ticket_created']);
    expect(await dovecot.list('Support')).toEqual([]);
    expect(await dovecot.list('Processed')).toHaveLength(2);
  });

  it('keeps a message over the size limit aside as too_large, and goes on', async () => {
    const big = await mailbox('Big');
    await dovecot.append('Big', await message({ text: 'x'.repeat(LIMIT + 10) }).raw);
    await dovecot.append('Big', await message({ subject: 'Small one' }).raw);
    nextPoll();
    await poller().runOnce();
    const rows = await rowsOf(big.id);
    expect(rows.map((row) => row.disposition)).toEqual(['too_large', 'ticket_created']);
    expect((await dovecot.list('Big')).every((entry) => entry.seen)).toBe(true);
  });

  it('records a failed poll on the mailbox and backs off; new settings clear it', async () => {
    // A folder that does not exist. (Not a wrong password: Dovecot would slow every later login from here.)
    const broken = await mailbox('Broken', { folder: 'Missing' });
    await dovecot.append('Broken', await message().raw);
    nextPoll();
    await poller({ baseDelayMs: 5000 }).runOnce();
    const failed = await api('GET', `/v1/mailboxes/${broken.id}`);
    expect(failed.imap.lastError).toMatch(/Missing|exist|Command failed/i);
    expect(Date.parse(failed.imap.nextPollAt) - Date.parse(failed.imap.lastPolledAt)).toBe(5000);
    expect(await rowsOf(broken.id)).toEqual([]);
    expect(
      Number(
        (await harness.db.selectFrom('mailboxes').select('imap_failures').where('id', '=', broken.id).executeTakeFirstOrThrow())
          .imap_failures,
      ),
    ).toBe(1);
    const fixed = await api('PATCH', `/v1/mailboxes/${broken.id}`, { imap: { folder: 'Broken' } });
    expect(fixed.imap).toMatchObject({ lastError: null, nextPollAt: null });
    await poller().runOnce();
    expect(await rowsOf(broken.id)).toHaveLength(1);
  });

  it(`sets a message aside as unreadable after ${MAX_MESSAGE_ATTEMPTS} failed attempts at filing it, and files the ones behind it`, async () => {
    // The database refuses to file this one message, every time (as PostgreSQL refused a NUL).
    const undo = await refuseWrites(
      harness.db,
      'email_messages',
      "new.subject like '%refuse-me%' and new.disposition <> 'unreadable'",
    );
    try {
      const stuck = await mailbox('Stuck');
      const poison = message({ subject: 'refuse-me' });
      const behind = message({ subject: 'Behind it' });
      await dovecot.append('Stuck', await poison.raw);
      await dovecot.append('Stuck', await behind.raw);
      const polling = poller({ baseDelayMs: 1000, maxDelayMs: 1000 });
      for (let attempt = 1; attempt <= MAX_MESSAGE_ATTEMPTS; attempt++) {
        nextPoll();
        await polling.runOnce();
        expect(await rowsOf(stuck.id)).toEqual([]);
      }
      expect((await api('GET', `/v1/mailboxes/${stuck.id}`)).imap.lastError).toMatch(/the database refuses this row/);
      nextPoll();
      await polling.runOnce();
      const rows = await rowsOf(stuck.id);
      expect(rows.map((row) => [row.message_id, row.disposition])).toEqual([
        [poison.messageId.slice(1, -1), 'unreadable'],
        [behind.messageId.slice(1, -1), 'ticket_created'],
      ]);
      const kept = await harness.db
        .selectFrom('email_messages')
        .select('raw')
        .where('mailbox_id', '=', stuck.id)
        .where('disposition', '=', 'unreadable')
        .executeTakeFirstOrThrow();
      expect(Buffer.from(kept.raw ?? []).toString('utf8')).toContain('Subject: refuse-me');
      expect((await dovecot.list('Stuck')).every((entry) => entry.seen)).toBe(true);
      expect((await api('GET', `/v1/mailboxes/${stuck.id}`)).imap.lastError).toBeNull();
      expect(
        await harness.db.selectFrom('imap_message_attempts').selectAll().where('mailbox_id', '=', stuck.id).execute(),
      ).toEqual([]);
    } finally {
      await undo();
    }
  });

  it('refuses to connect to a private address that OUTBOUND_ALLOWED_HOSTS no longer names', async () => {
    const guarded = await mailbox('Guarded');
    nextPoll();
    const deps = inboundDepsOf(harness);
    const strict = createImapPoller({ ...deps, config: { ...deps.config, OUTBOUND_ALLOWED_HOSTS: undefined } });
    await strict.runOnce();
    expect((await api('GET', `/v1/mailboxes/${guarded.id}`)).imap.lastError).toMatch(/private or reserved/);
  });

  it('two pollers with their own connection pools take each message once, even when the lease runs out', async () => {
    const race = await mailbox('Race');
    for (let index = 0; index < 6; index++) {
      await dovecot.append('Race', await message({ subject: `Race ${index}` }).raw);
    }
    // Only this mailbox is due in this test: the others wait, so each pass polls it alone.
    await harness.db
      .updateTable('mailboxes')
      .set({ imap_next_poll_at: '2999-01-01T00:00:00.000Z' })
      .where('id', '<>', race.id)
      .execute();
    const second = dialect === 'postgres' ? connectPostgres(harness.url ?? '', 5) : null;
    try {
      const tickets = await ticketCount();
      nextPoll();
      // A lease of 0 ms: both claim the mailbox and fetch the same messages; the Message-ID index lets each in once.
      const expiring = [poller({ leaseMs: 0, messagesPerPoll: 3 }), poller({ leaseMs: 0, messagesPerPoll: 3 }, second?.db)];
      await Promise.all([expiring[0]?.runOnce(), expiring[1]?.runOnce()]);
      nextPoll();
      await Promise.all([expiring[0]?.runOnce(), expiring[1]?.runOnce()]);
      const rows = await rowsOf(race.id);
      expect(rows).toHaveLength(6);
      expect(new Set(rows.map((row) => row.message_id)).size).toBe(6);
      expect(await ticketCount()).toBe(tickets + 6);
      // With a lease, the second poller finds the mailbox taken.
      for (let index = 0; index < 2; index++) {
        await dovecot.append('Race', await message().raw);
      }
      nextPoll();
      const polled = await Promise.all([poller().runOnce(), poller({}, second?.db).runOnce()]);
      expect(polled.sort()).toEqual([0, 1]);
      expect(await rowsOf(race.id)).toHaveLength(8);
    } finally {
      await second?.close();
    }
  });

  it('keeps a message set aside by its headers alone, fetching its body only for a message taken in', async () => {
    const sorting = await mailbox('Sorting');
    const away = message({ subject: 'Out of office', headers: { 'Auto-Submitted': 'auto-replied' } });
    const person = message({ subject: 'A real question' });
    await dovecot.append('Sorting', await away.raw);
    await dovecot.append('Sorting', await person.raw);
    nextPoll();
    await poller().runOnce();
    const rows = await harness.db
      .selectFrom('email_messages')
      .select(['subject', 'disposition', 'raw', 'raw_size'])
      .where('mailbox_id', '=', sorting.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.subject, row.disposition, row.raw === null])).toEqual([
      ['Out of office', 'auto_reply', true],
      ['A real question', 'ticket_created', false],
    ]);
    expect(Number(rows[0]?.raw_size)).toBeGreaterThan(0);
    await harness.app.inject({ method: 'DELETE', url: `/v1/mailboxes/${sorting.id}`, headers: acme.headers });
  });

  it('does not poll an unverified mailbox; once verified, it is polled', async () => {
    const pending = await unverifiedMailbox('Pending');
    const mail = message({ subject: 'Waiting for verification' });
    await dovecot.append('Pending', await mail.raw);
    nextPoll();
    await poller().runOnce();
    expect(await rowsOf(pending.id)).toEqual([]);
    expect((await api('GET', `/v1/mailboxes/${pending.id}`)).imap.lastPolledAt).toBeNull();
    expect((await dovecot.list('Pending')).some((entry) => entry.seen)).toBe(false);
    await verifyMailbox(harness, pending.id);
    nextPoll();
    await poller().runOnce();
    expect((await rowsOf(pending.id)).map((row) => row.disposition)).toEqual(['ticket_created']);
    // Gone, so that later polls count only the mailboxes of their own tests.
    await harness.app.inject({ method: 'DELETE', url: `/v1/mailboxes/${pending.id}`, headers: acme.headers });
  });
});
