import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { depsOfApp } from '../../src/app.js';
import { parseConfig } from '../../src/config.js';
import type { DB } from '../../src/db/database.js';
import type { Clock } from '../../src/lib/clock.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { freePort } from '../free-port.js';
import { type ReceivedMail, startSmtp } from '../smtp.js';

export interface ConsoleServer {
  /** `http://127.0.0.1:PORT`, the origin the console is served from. */
  origin: string;
  /** The first organization's admin key, printed at the first start, for arranging data through the API. */
  apiKey: string;
  /** Mail the server delivered, as the loopback SMTP server received it. */
  mail: ReceivedMail[];
  /** Calls the platform API with the admin key; throws on an error status. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** The server's database, for rows only a background worker writes (Slack's detection decisions). */
  db: Kysely<DB>;
  close(): Promise<void>;
}

/**
 * `switchboard serve` as a user runs it, in this process: SQLite in a fresh data folder, the built
 * console at /app/, every background worker, and email delivered to a loopback SMTP server.
 */
export async function startConsoleServer(
  env: Record<string, string> = {},
  options: { clock?: Clock } = {},
): Promise<ConsoleServer> {
  const smtp = await startSmtp();
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-console-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const printed: string[] = [];
  const config = parseConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: origin,
    LOG_LEVEL: 'silent',
    SMTP_URL: smtp.url,
    OUTBOX_POLL_MS: '100',
    EVENT_STREAM_HEARTBEAT_MS: '2000',
    ...env,
  });
  let server: RunningServer;
  try {
    server = await startServer(config, pino({ level: 'silent' }), (line) => printed.push(line), options);
  } catch (error) {
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const apiKey = /Admin API key \(shown only this once\): (\S+)/.exec(printed.join('\n'))?.[1];
  if (!apiKey) {
    throw new Error(`no admin key was printed:\n${printed.join('\n')}`);
  }
  return {
    origin,
    apiKey,
    mail: smtp.messages,
    db: depsOfApp(server.apps[0] as Parameters<typeof depsOfApp>[0]).db,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) {
        throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      }
      const json = text ? JSON.parse(text) : undefined;
      return (json && typeof json === 'object' && 'data' in json ? json.data : json) as T;
    },
    async close() {
      await server.close();
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
