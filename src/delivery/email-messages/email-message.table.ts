import type { ColumnType } from 'kysely';

export type EmailDirection = 'inbound' | 'outbound';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/**
 * A message of a ticket's email thread, received or sent. Received ones keep the original bytes;
 * sent ones link the outbox row that delivers them (its state is the delivery state).
 */
export interface EmailMessageTable {
  id: string;
  organization_id: string;
  mailbox_id: Optional<string>;
  ticket_id: Optional<string>;
  comment_id: Optional<string>;
  outbox_id: Optional<string>;
  direction: EmailDirection;
  /** The `Message-ID` without angle brackets; unique per organization and direction. */
  message_id: string;
  in_reply_to: Optional<string>;
  /** JSON: the `References` ids, oldest first, without angle brackets. */
  references_ids: string;
  from_address: string;
  from_name: Optional<string>;
  /** JSON arrays of addresses. */
  to_addresses: string;
  cc_addresses: string;
  subject: string;
  /** JSON: the headers as received or sent, `[name, value]` in order. */
  headers: string;
  /** The original message (`.eml`): as received, or as sent once delivered (DKIM signature included). */
  raw: Optional<Buffer>;
  raw_size: number;
  /**
   * What became of it: for received mail `ticket_created`, `reply`, or why it was set aside
   * (`auto_reply`, `bounce`, `loop`, `rate_limited`, …); for sent mail `queued`, then `sent` once delivered.
   */
  disposition: string;
  /**
   * Which conversation of the ticket it belongs to: `customer` (the default: every message
   * received, every email to the requestor) or `agent:<user id>` (notifications to one agent,
   * never cited in the customer's mail).
   */
  thread: ColumnType<string, string | undefined, string>;
  created_at: string;
}
