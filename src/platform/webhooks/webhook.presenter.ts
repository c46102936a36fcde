import { readBoolean, readJson } from '../../db/dialect.js';
import { eventId } from '../events/event.presenter.js';
import type { AttemptRow, DeliveryRow, WebhookRow } from './webhook.repository.js';

export function toWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    eventTypes: readJson<string[]>(row.event_types) ?? [],
    description: row.description,
    enabled: readBoolean(row.enabled),
    ownerId: row.owner_user_id,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    failingSince: row.failing_since,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toAttempt(row: AttemptRow) {
  return {
    id: row.id,
    startedAt: row.started_at,
    statusCode: row.status_code === null ? null : Number(row.status_code),
    latencyMs: Number(row.latency_ms),
    responseBody: row.response_body,
    responseTruncated: readBoolean(row.response_truncated),
    error: row.error,
  };
}

export function toDelivery(row: DeliveryRow, attempts: readonly AttemptRow[]) {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_seq === null ? null : eventId(Number(row.event_seq)),
    eventType: row.event_type,
    status: row.status,
    attempts: attempts.map(toAttempt),
    nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
