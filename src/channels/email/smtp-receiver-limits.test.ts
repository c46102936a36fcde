import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { composeMail, inboundDepsOf, inboundEnv, makeVerifiedMailbox } from '../../../test/inbound.js';
import { SmtpClient, sendRaw } from '../../../test/smtp-client.js';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js';

const MIB = 1024 * 1024;
/** The default limit, as a deployment has it. */
const LIMIT = 25 * MIB;

// Full collections before each measurement, so what is counted is what is held, not garbage (the
// second also accounts the buffers the first freed, whose memory is swept on another thread).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
/** Memory the process holds: the JavaScript heap and the buffers outside it. */
function held(): number {
  collect();
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** Waits, a turn of the event loop at a time, until `condition` holds (the receiver works on its own schedule). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 2000; attempt++) {
    if (condition()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe.each(DIALECTS)('the SMTP receiver within INBOUND_MAX_BYTES on %s', (dialect) => {
  const data = inboundEnv({ INBOUND_MAX_BYTES: String(LIMIT) });
  let harness: TestApp;
  let receiver: SmtpReceiver;
  let acme: TestOrganization;
  const spoolDir = mkdtempSync(join(tmpdir(), 'switchboard-spool-test-'));
  const address = `support-${dialect}@acme.test`;
  /** The sizes of the spool files (one removed between listing and looking is gone). */
  const spooled = () =>
    readdirSync(spoolDir).flatMap((name) => {
      const stats = statSync(join(spoolDir, name), { throwIfNoEntry: false });
      return stats ? [stats.size] : [];
    });

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: data.env });
    acme = await makeOrganization(harness);
    const team = await makeTeam(harness, acme);
    await makeVerifiedMailbox(harness, acme, { address, teamId: team.teamId });
    receiver = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1', spoolDir });
    // A first message through, so that what a first message loads is not counted as held by the large one.
    const raw = await composeMail({ from: 'jane@customer.test', to: address, subject: 'Warm-up', text: 'hello' });
    expect((await sendRaw(receiver.port, { from: 'jane@customer.test', to: [address] }, raw)).data?.code).toBe(250);
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
    data.cleanup();
    rmSync(spoolDir, { recursive: true, force: true });
  });

  it('refuses a 30 MiB message while it arrives, written to disk and never held in memory', async () => {
    const rows = async () =>
      Number(
        (
          await harness.db
            .selectFrom('email_messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await rows();
    // One MiB of body lines, sent thirty times over: the client holds one MiB, whatever it sends.
    const line = `${'x'.repeat(1022)}\r\n`;
    const chunk = Buffer.from(line.repeat(MIB / line.length));
    const { client } = await SmtpClient.open(receiver.port);
    try {
      await client.command('EHLO client.test');
      expect((await client.command('MAIL FROM:<jane@customer.test>')).code).toBe(250);
      expect((await client.command(`RCPT TO:<${address}>`)).code).toBe(250);
      const baseline = held();
      expect((await client.command('DATA')).code).toBe(354);
      await client.write(Buffer.from(`From: jane@customer.test\r\nTo: ${address}\r\nSubject: Huge\r\n\r\n`));
      for (let sent = 0; sent < 20; sent++) {
        await client.write(chunk);
      }
      // The first 20 MiB are in the spool file, not in memory.
      await until(() => (spooled()[0] ?? 0) >= 19 * MIB, 'the spool file to reach 19 MiB');
      // Loosely: a few MiB for whatever the process does meanwhile, against the 19 a buffering receiver holds.
      expect(held() - baseline).toBeLessThan(8 * MIB);
      for (let sent = 20; sent < 27; sent++) {
        await client.write(chunk);
      }
      // Past 25 MiB the message is dropped at once, while the client is still sending.
      await until(() => spooled().length === 0, 'the spool file to be removed');
      for (let sent = 27; sent < 30; sent++) {
        await client.write(chunk);
      }
      const answer = await client.endData();
      expect(answer.code).toBe(552);
      expect(held() - baseline).toBeLessThan(8 * MIB);
    } finally {
      client.destroy();
    }
    expect(await rows()).toBe(before);
    expect(spooled()).toEqual([]);
  });

  it('takes a message just within the limit, and leaves no spool file behind', async () => {
    const body = `${'y'.repeat(998)}\r\n`.repeat(1024);
    const { client } = await SmtpClient.open(receiver.port);
    try {
      await client.command('EHLO client.test');
      await client.command('MAIL FROM:<jane@customer.test>');
      await client.command(`RCPT TO:<${address}>`);
      expect((await client.command('DATA')).code).toBe(354);
      await client.write(
        Buffer.from(
          `From: jane@customer.test\r\nTo: ${address}\r\nSubject: Fits\r\nMessage-ID: <fits-${dialect}@customer.test>\r\n\r\n${body}`,
        ),
      );
      const answer = await client.endData();
      expect(answer.code, answer.text).toBe(250);
      expect(answer.text).toMatch(/ticket_created/);
    } finally {
      client.destroy();
    }
    const row = await harness.db
      .selectFrom('email_messages')
      .select(['raw', 'raw_size'])
      .where('message_id', '=', `fits-${dialect}@customer.test`)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.raw ?? []).toString('latin1')).toContain('Subject: Fits');
    expect(Number(row.raw_size)).toBe(row.raw?.length);
    expect(spooled()).toEqual([]);
  });
});
