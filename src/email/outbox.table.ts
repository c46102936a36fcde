import type { ColumnType } from 'kysely';

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'undeliverable';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface EmailOutboxTable {
  id: string;
  organization_id: string;
  /** What the message is about (`comment:<id>`); unique, so one event queues at most one message. */
  dedupe_key: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: OutboxStatus;
  /** Delivery attempts started; counted when a worker claims the message. */
  attempts: ColumnType<number, number | undefined, number>;
  /** When a pending or failed message is due; null once it is sent or undeliverable. */
  next_attempt_at: string | null;
  /** Lease of the worker sending it; another worker may take it over once this has passed. */
  locked_until: Optional<string>;
  last_error: Optional<string>;
  /** The `Message-ID` header, `<outbox id@sender domain>`, the same on every attempt. */
  message_id: Optional<string>;
  sent_at: Optional<string>;
  created_at: string;
  updated_at: string;
}
