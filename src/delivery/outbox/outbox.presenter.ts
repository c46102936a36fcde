import type { DeliveryRow, OutboxListRow } from './outbox.repository.js';
import type { OutboxStatus } from './outbox.table.js';

export function toOutboxMessage(row: OutboxListRow) {
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

export type EmailDelivery = ReturnType<typeof toEmailDelivery>;

export function toEmailDelivery(row: Omit<DeliveryRow, 'dedupe_key'>) {
  return {
    outboxId: row.id,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    sentAt: row.sent_at,
    updatedAt: row.updated_at,
  };
}

/** The columns `JOINED_OUTBOX_COLUMNS` selects, null throughout when the row has no outbox message. */
export interface JoinedOutbox {
  outbox_id: string | null;
  outbox_status: OutboxStatus | null;
  outbox_attempts: number | null;
  outbox_last_error: string | null;
  outbox_sent_at: string | null;
  outbox_updated_at: string | null;
}

/** The delivery of the outbox message a row joined (`JOINED_OUTBOX_COLUMNS`); null when it has none. */
export function deliveryOfJoinedOutbox(row: JoinedOutbox): EmailDelivery | null {
  if (row.outbox_id === null) {
    return null;
  }
  // The joined row's columns are NOT NULL in the table; only a missing row makes them null.
  return toEmailDelivery({
    id: row.outbox_id,
    status: row.outbox_status as OutboxStatus,
    attempts: row.outbox_attempts as number,
    last_error: row.outbox_last_error,
    sent_at: row.outbox_sent_at,
    updated_at: row.outbox_updated_at as string,
  });
}
