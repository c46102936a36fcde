import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import type { Dialect } from '../src/db/dialect.js';
import { type RunningServer, SMTP_URL_MISSING, startServer } from '../src/server.js';
import { DIALECTS } from './dialects.js';
import { freePort } from './free-port.js';
import { createTestDatabase } from './harness.js';

const TEST_SECRET_KEY = '5e'.repeat(32);
const WARN = 40;

interface LogLine {
  level: number;
  msg: string;
}

/** A fresh database for `startServer`: an empty data folder (SQLite) or a new PostgreSQL database. */
async function freshDatabase(dialect: Dialect): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const database = await createTestDatabase('postgres');
    return { env: { DATABASE_URL: database.url ?? '', SECRET_KEY: TEST_SECRET_KEY }, drop: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-serve-smtp-'));
  return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

describe.each(DIALECTS)('email delivery warning at start on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  /** Starts the server in this process with a logger that keeps every line; stopped after the test. */
  async function start(env: Record<string, string>) {
    const database = await freshDatabase(dialect);
    cleanups.push(database.drop);
    const lines: LogLine[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
    const config = parseConfig({ HOST: '127.0.0.1', LOG_LEVEL: 'info', ...database.env, ...env });
    const server: RunningServer = await startServer(config, log, () => {});
    cleanups.push(() => server.close());
    return { server, lines };
  }

  it('warns once, whatever the number of listeners, that email will not be delivered without SMTP_URL', async () => {
    const [port, platformPort, helpCenterPort] = [await freePort(), await freePort(), await freePort()];
    const { server, lines } = await start({
      PORT: String(port),
      PLATFORM_PORT: String(platformPort),
      HELP_CENTER_PORT: String(helpCenterPort),
    });
    expect(server.addresses).toHaveLength(3);
    const warnings = lines.filter((line) => line.msg.includes('SMTP_URL'));
    expect(warnings).toEqual([expect.objectContaining({ level: WARN, msg: SMTP_URL_MISSING })]);
    expect(SMTP_URL_MISSING).toMatch(/will not be delivered.*undeliverable until SMTP_URL is set/);
  });

  it('says nothing about email when SMTP_URL is set', async () => {
    const { lines } = await start({ PORT: String(await freePort()), SMTP_URL: 'smtp://127.0.0.1:2525' });
    expect(lines.some((line) => line.msg === 'database ready')).toBe(true);
    expect(lines.filter((line) => line.msg.includes('SMTP_URL'))).toEqual([]);
  });
});
