import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/database.js';
import type { Principal } from '../http/api-key-auth.js';
import type { Clock } from '../lib/clock.js';
import type { IdFactory } from '../lib/ids.js';
import { requireOrgAdmin } from '../platform/authorization.js';
import { findOutboxIdByDedupeKey, insertOutboxMessage, listOutboxMessages, type OutboxListRow } from './outbox.repository.js';
import type { ListOutboxQuerySchema } from './outbox.schemas.js';

export interface EnqueueEmail {
  organizationId: string;
  /** What the email is about, e.g. `comment:<comment id>`; unique across the installation. */
  dedupeKey: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

/**
 * Queues an email in the caller's transaction, so it exists exactly when the caller's change
 * commits. A second call with the same `dedupeKey` (another request, another process) inserts
 * nothing and answers the first message's id with `created: false`.
 */
export async function enqueueEmail(
  trx: Kysely<DB> | Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory },
  input: EnqueueEmail,
): Promise<{ id: string; created: boolean }> {
  const at = deps.clock.now().toISOString();
  const id = deps.ids.ulid();
  const created = await insertOutboxMessage(trx, {
    id,
    organization_id: input.organizationId,
    dedupe_key: input.dedupeKey,
    to_address: input.to,
    subject: input.subject,
    text_body: input.text,
    html_body: input.html ?? null,
    status: 'pending',
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  });
  if (created) {
    return { id, created };
  }
  const existing = await findOutboxIdByDedupeKey(trx, input.dedupeKey);
  if (!existing) {
    throw new Error(`Outbox message with dedupe key ${input.dedupeKey} neither inserted nor found`);
  }
  return { id: existing, created };
}

function toOutboxMessage(row: OutboxListRow) {
  return {
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    sentAt: row.sent_at,
    messageId: row.message_id,
    createdAt: row.created_at,
    dedupeKey: row.dedupe_key,
  };
}

/** The organization's queued and sent email, newest first; organization admins only. */
export async function listOutbox(db: Kysely<DB>, principal: Principal, query: Static<typeof ListOutboxQuerySchema>) {
  requireOrgAdmin(principal);
  const limit = query.limit ?? 20;
  const rows = await listOutboxMessages(db, principal.organizationId, {
    status: query.status,
    offset: (query.page ?? 0) * limit,
    limit,
  });
  return rows.map(toOutboxMessage);
}
