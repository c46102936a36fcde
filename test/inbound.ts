import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { pino } from 'pino';
import type { InboundDeps } from '../src/channels/email/inbound.service.js';
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

/**
 * The token of the latest verification link emailed for a mailbox, read from the queued email as
 * the address's reader would read it.
 */
export async function verificationTokenOf(harness: TestApp, mailboxId: string): Promise<string> {
  const link = await harness.db
    .selectFrom('mailbox_verification_links')
    .select('id')
    .where('mailbox_id', '=', mailboxId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const email = link
    ? await harness.db
        .selectFrom('email_outbox')
        .select('text_body')
        .where('dedupe_key', '=', `mailbox-verification:${link.id}`)
        .executeTakeFirst()
    : undefined;
  const token = /\/v1\/mailbox-verification\?token=([A-Za-z0-9_-]{43})/.exec(email?.text_body ?? '')?.[1];
  if (!token) {
    throw new Error(`no verification link was emailed for mailbox ${mailboxId}`);
  }
  return token;
}

/** Presses the confirm button of a verification link's page, as its reader does. */
export function confirmVerification(harness: TestApp, token: string) {
  return harness.app.inject({
    method: 'POST',
    url: '/v1/mailbox-verification',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token }).toString(),
  });
}

/** Verifies a mailbox through its emailed link, as the person reading its address does. */
export async function verifyMailbox(harness: TestApp, mailboxId: string): Promise<void> {
  const response = await confirmVerification(harness, await verificationTokenOf(harness, mailboxId));
  if (response.statusCode !== 200 || !response.body.includes('Address verified')) {
    throw new Error(`mailbox ${mailboxId} was not verified: ${response.statusCode} ${response.body}`);
  }
}

/** A mailbox of the organization that receives by SMTP, made through the API and verified by its link. */
export async function makeVerifiedMailbox(
  harness: TestApp,
  organization: { headers: Record<string, string> },
  mailbox: { address: string; teamId: string; displayName?: string },
): Promise<{ id: string; address: string }> {
  const created = await harness.app.inject({
    method: 'POST',
    url: '/v1/mailboxes',
    headers: organization.headers,
    payload: { displayName: 'Support', delivery: 'smtp', ...mailbox },
  });
  if (created.statusCode !== 201) {
    throw new Error(`mailbox ${mailbox.address} was not created: ${created.statusCode} ${created.body}`);
  }
  const { id, address } = created.json().data as { id: string; address: string };
  await verifyMailbox(harness, id);
  return { id, address };
}
