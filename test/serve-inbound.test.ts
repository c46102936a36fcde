import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import type { Dialect } from '../src/db/dialect.js';
import { type RunningServer, startServer } from '../src/server.js';
import { DIALECTS } from './dialects.js';
import { startDnsServer } from './dns-server.js';
import { createTestDatabase } from './harness.js';
import { composeMail } from './inbound.js';
import { sendRaw } from './smtp-client.js';

const TEST_SECRET_KEY = '6f'.repeat(32);

async function freshDatabase(dialect: Dialect): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const database = await createTestDatabase('postgres');
    return { env: { DATABASE_URL: database.url ?? '', SECRET_KEY: TEST_SECRET_KEY }, drop: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-serve-inbound-'));
  return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

describe.each(DIALECTS)('serve with SMTP_INBOUND_PORT on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  it('listens for mail beside the API and files it for the mailbox an admin set up and verified', async () => {
    const database = await freshDatabase(dialect);
    cleanups.push(database.drop);
    const dns = await startDnsServer();
    cleanups.push(() => dns.close());
    const printed: string[] = [];
    const config = parseConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      SMTP_INBOUND_PORT: '0',
      MAILBOX_DNS_SERVERS: dns.address,
      ...database.env,
    });
    const server: RunningServer = await startServer(config, pino({ level: 'silent' }), (line) => printed.push(line));
    cleanups.push(() => server.close());
    expect(server.inboundSmtpPort).toBeGreaterThan(0);
    const port = server.inboundSmtpPort ?? 0;
    const apiKey = /Admin API key \(shown only this once\): (\S+)/.exec(printed.join('\n'))?.[1] ?? '';
    const [app] = server.apps;
    const call = async (method: 'POST' | 'GET', url: string, payload?: object) => {
      const response = await app?.inject({ method, url, headers: { 'x-api-key': apiKey }, ...(payload ? { payload } : {}) });
      expect(response?.statusCode, response?.body).toBeLessThan(300);
      return response?.json().data;
    };

    const unknown = await sendRaw(port, { from: 'sam@customer.test', to: ['support@acme.test'] }, 'x');
    expect(unknown.rcpt[0]?.code).toBe(550);

    const team = await call('POST', '/v1/teams', { name: 'Support', identifier: 'SUP' });
    const mailbox = await call('POST', '/v1/mailboxes', {
      address: 'support@acme.test',
      teamId: team.id,
      displayName: 'Support',
      delivery: 'smtp',
    });
    const raw = await composeMail({ from: 'sam@customer.test', to: 'support@acme.test', subject: 'Hello', text: 'Hi there' });
    // Unverified, the address takes no mail; the domain's TXT record verifies it.
    expect((await sendRaw(port, { from: 'sam@customer.test', to: ['support@acme.test'] }, raw)).rcpt[0]?.code).toBe(550);
    const record = mailbox.verification.dnsRecord;
    dns.setTxt(record.name, [record.value]);
    expect((await call('POST', `/v1/mailboxes/${mailbox.id}/verification/dns`)).verification.status).toBe('verified');
    const sent = await sendRaw(port, { from: 'sam@customer.test', to: ['support@acme.test'] }, raw);
    expect(sent.data?.code).toBe(250);
    const tickets = await call('GET', '/v1/tickets');
    expect(tickets).toEqual([expect.objectContaining({ title: 'Hello', source: 'email', ticketIdentifier: 'SUP-1' })]);
  });
});
