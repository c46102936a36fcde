import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { pino } from 'pino';
import type { InboundDeps } from '../src/email/inbound/inbound.service.js';
import { decodeSecretKey } from '../src/lib/secret-box.js';
import { createAttachmentStorage } from '../src/platform/attachments/attachment.storage.js';
import type { TestApp } from './harness.js';

/** The key every inbound test app runs with, so reply addresses made in a test verify in the app. */
export const INBOUND_SECRET_KEY = '4d'.repeat(32);

/** Environment of an app that receives mail: a known secret key and its own data folder (files on disk with SQLite). */
export function inboundEnv(overrides: Record<string, string> = {}): { env: Record<string, string>; cleanup(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-inbound-'));
  return {
    env: { SECRET_KEY: INBOUND_SECRET_KEY, DATA_DIR: dataDir, ...overrides },
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * What the receivers are handed in a server process, over the harness's database: on PostgreSQL
 * configured as a PostgreSQL deployment is (`DATABASE_URL`), so attachments are kept in the database.
 */
export function inboundDepsOf(harness: TestApp, db = harness.db): InboundDeps & { log: pino.Logger } {
  const config = harness.dialect === 'postgres' ? { ...harness.config, DATABASE_URL: harness.url } : harness.config;
  return {
    db,
    clock: harness.clock,
    ids: harness.ids,
    config,
    secretKey: decodeSecretKey(INBOUND_SECRET_KEY),
    storage: createAttachmentStorage(config),
    log: pino({ level: 'silent' }),
  };
}

/** The bytes nodemailer would send for these options (its own MIME, Message-ID and headers). */
export async function composeMail(options: SendMailOptions): Promise<Buffer> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transport.sendMail(options);
  return info.message as Buffer;
}

/** A nodemailer transport to a loopback SMTP port, plain (the receiver offers STARTTLS only with a certificate). */
export function smtpTransport(port: number) {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, connectionTimeout: 5000 });
}
