import type { ColumnType } from 'kysely';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** Why an endpoint stopped receiving: an admin turned it off, or it failed for too long. */
export const DISABLED_REASONS = ['manual', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** An endpoint an organization admin registered; deliveries are filtered with its owner's eyes. */
export interface WebhookTable {
  id: string;
  organization_id: string;
  /** Its creator: whose visibility filters the events, and who is emailed when it is disabled. */
  owner_user_id: string;
  url: string;
  /** JSON array of the event types it receives. */
  event_types: string;
  description: string | null;
  enabled: boolean | number;
  /** `whsec_…` sealed with `SECRET_KEY` (AAD `webhook|<id>`, so it may move to the previous column as is). */
  secret_encrypted: string;
  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  previous_secret_encrypted: Optional<string>;
  previous_secret_expires_at: Optional<string>;
  /** The last number of the organization's event log already turned into deliveries (or skipped). */
  dispatched_seq: number;
  /** The first failed attempt since the last success; null while the endpoint succeeds. */
  failing_since: Optional<string>;
  disabled_reason: Optional<DisabledReason>;
  disabled_at: Optional<string>;
  created_at: string;
  updated_at: string;
}

export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event (or test) for one endpoint; its id is the Standard Webhooks `webhook-id`, the same on every attempt. */
export interface WebhookDeliveryTable {
  id: string;
  webhook_id: string;
  /** The event's number in the organization's log; null for a test. */
  event_seq: number | null;
  event_type: string;
  /** The JSON body sent, frozen when the delivery was made, so every attempt sends the same bytes. */
  payload: string;
  status: DeliveryStatus;
  /**
   * A single attempt asked for by an admin (a retry of a finished delivery, a test): it goes out
   * of the endpoint's order, and is not retried on failure.
   */
  manual: ColumnType<boolean | number, boolean | number | undefined, boolean | number>;
  /** Attempts started; counted when a worker claims the delivery. */
  attempts: ColumnType<number, number | undefined, number>;
  /** When a pending delivery is due; null once it is finished. */
  next_attempt_at: string | null;
  /** Lease of the worker delivering it; another may take it over once this has passed. */
  locked_until: Optional<string>;
  last_status_code: Optional<number>;
  last_error: Optional<string>;
  delivered_at: Optional<string>;
  created_at: string;
  updated_at: string;
}

/** One POST of a delivery and what came back. */
export interface WebhookDeliveryAttemptTable {
  id: string;
  delivery_id: string;
  started_at: string;
  /** Null when no response came (refused, timed out, blocked by the outbound guard). */
  status_code: number | null;
  latency_ms: number;
  /** The start of the response body (a few kB). */
  response_body: string | null;
  response_truncated: boolean | number;
  error: string | null;
}
