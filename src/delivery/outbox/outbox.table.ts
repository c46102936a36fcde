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
  /**
   * The `Message-ID` header, the same on every attempt: a ticket email's is made when it is queued
   * (`<ulid@mailbox domain>`); any other's is `<outbox id@sender domain>`, set when it is sent.
   */
  message_id: Optional<string>;
  /** The sender (a ticket's mailbox); null: `SMTP_FROM`. */
  from_name: Optional<string>;
  from_address: Optional<string>;
  /** The `Reply-To` header as sent (`Name <support+bill-1.sig@acme.test>`); null: none. */
  reply_to: Optional<string>;
  /** Threading headers of a ticket email, ids in angle brackets; `references_ids` a JSON array, oldest first. */
  in_reply_to: Optional<string>;
  references_ids: Optional<string>;
  sent_at: Optional<string>;
  created_at: string;
  updated_at: string;
}
