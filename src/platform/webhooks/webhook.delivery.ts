import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate, readBoolean } from '../../db/dialect.js';
import { enqueueEmail } from '../../email/outbox.service.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import {
  clearFailingSince,
  type DeliveryRow,
  disableFailingWebhook,
  findOwner,
  finishDelivery,
  insertAttempt,
  markFailingSince,
  promoteNextDelivery,
  type SendTargetRow,
} from './webhook.repository.js';
import type { SendOutcome, WebhookSender } from './webhook.sender.js';
import { openWebhookSecret } from './webhook.signing.js';

/**
 * One attempt of a claimed delivery: sign, POST (outside any transaction), then record the outcome
 * while the claim is still ours. Shared by the worker and the test route.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits after the 1st, 2nd … 7th failed attempt (the Standard Webhooks schedule); the 8th failure is final. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;

/** An endpoint whose deliveries have all failed for this long is disabled and its owner emailed. */
export const DISABLE_AFTER_MS = 3 * 24 * HOUR;

/** How long a claim holds: well past the 10 s a receiver gets. */
export const DELIVERY_LEASE_MS = 60 * SECOND;

export interface DeliveryDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  box: SecretBox;
  sender: WebhookSender;
}

/** The secrets that sign now: the current one, and the previous one until it expires. */
function signingSecrets(box: SecretBox, target: SendTargetRow, now: Date): string[] | null {
  const current = openWebhookSecret(box, target.id, target.secret_encrypted);
  if (current === null) {
    return null;
  }
  const previous =
    target.previous_secret_encrypted &&
    target.previous_secret_expires_at &&
    new Date(target.previous_secret_expires_at).getTime() > now.getTime()
      ? openWebhookSecret(box, target.id, target.previous_secret_encrypted)
      : null;
  return previous === null ? [current] : [current, previous];
}

/**
 * Sends a delivery this caller has claimed under `lockedUntil` and records the attempt. Answers the
 * outcome, or null when the claim was lost meanwhile (another worker took over, the webhook was
 * deleted), in which case nothing was written.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  delivery: DeliveryRow,
  target: SendTargetRow,
  lockedUntil: string,
): Promise<SendOutcome | null> {
  const startedAt = deps.clock.now();
  const secrets = signingSecrets(deps.box, target, startedAt);
  const outcome: SendOutcome = secrets
    ? await deps.sender.send(target.url, secrets, { id: delivery.id, at: startedAt, body: delivery.payload })
    : {
        ok: false,
        statusCode: null,
        latencyMs: 0,
        responseBody: null,
        responseTruncated: false,
        error: 'the signing secret does not open with this SECRET_KEY: rotate the secret',
      };
  const recorded = await deps.db
    .transaction()
    .execute((trx) => recordAttempt(trx, deps, { delivery, lockedUntil, startedAt: startedAt.toISOString(), outcome }));
  return recorded ? outcome : null;
}

async function recordAttempt(
  trx: Transaction<DB>,
  deps: Pick<DeliveryDeps, 'clock' | 'ids'>,
  attempt: { delivery: DeliveryRow; lockedUntil: string; startedAt: string; outcome: SendOutcome },
): Promise<boolean> {
  const { delivery, outcome } = attempt;
  const now = deps.clock.now();
  const at = now.toISOString();
  // The endpoint first, as deleting it does (then its deliveries, by cascade): one lock order.
  const webhook = await forNoKeyUpdate(
    trx,
    trx.selectFrom('webhooks').select('id').where('id', '=', delivery.webhook_id),
  ).executeTakeFirst();
  if (!webhook) {
    return false;
  }
  const attemptsMade = Number(delivery.attempts);
  const manual = readBoolean(delivery.manual);
  const retry = !outcome.ok && !manual && attemptsMade <= RETRY_DELAYS_MS.length;
  const delay = RETRY_DELAYS_MS[attemptsMade - 1] ?? 0;
  const finished = await finishDelivery(trx, delivery.id, attempt.lockedUntil, {
    status: outcome.ok ? 'delivered' : retry ? 'pending' : 'failed',
    at,
    nextAttemptAt: retry ? new Date(now.getTime() + delay).toISOString() : null,
    statusCode: outcome.statusCode,
    error: outcome.error,
  });
  if (!finished) {
    return false;
  }
  if (!manual && !retry) {
    // Done, one way or the other: the endpoint's next event goes.
    await promoteNextDelivery(trx, delivery.webhook_id, at);
  }
  await insertAttempt(trx, {
    id: deps.ids.ulid(),
    delivery_id: delivery.id,
    started_at: attempt.startedAt,
    status_code: outcome.statusCode,
    latency_ms: outcome.latencyMs,
    response_body: outcome.responseBody,
    response_truncated: outcome.responseTruncated,
    error: outcome.error,
  });
  // Tests say nothing about the endpoint's health: only deliveries of events do.
  if (delivery.event_seq !== null) {
    await recordHealth(trx, deps, delivery.webhook_id, outcome.ok, attempt.startedAt, now);
  }
  return true;
}

/**
 * A success ends the endpoint's failing streak; a failure starts one, and past `DISABLE_AFTER_MS`
 * disables the endpoint and queues its owner's email, in this transaction.
 */
async function recordHealth(
  trx: Transaction<DB>,
  deps: Pick<DeliveryDeps, 'clock' | 'ids'>,
  webhookId: string,
  ok: boolean,
  startedAt: string,
  now: Date,
): Promise<void> {
  if (ok) {
    await clearFailingSince(trx, webhookId, now.toISOString());
    return;
  }
  await markFailingSince(trx, webhookId, startedAt);
  const cutoff = new Date(now.getTime() - DISABLE_AFTER_MS).toISOString();
  const disabled = await disableFailingWebhook(trx, webhookId, cutoff, now.toISOString());
  if (!disabled) {
    return;
  }
  const owner = await findOwner(trx, disabled.owner_user_id);
  if (!owner || owner.deleted_at !== null) {
    return;
  }
  await enqueueEmail(trx, deps, {
    organizationId: disabled.organization_id,
    dedupeKey: `webhook-disabled:${disabled.id}:${now.toISOString()}`,
    to: owner.email,
    subject: `Webhook disabled: ${disabled.url}`,
    text: [
      `Every delivery to your webhook ${disabled.url} (${disabled.id}) has failed since ${disabled.failing_since},`,
      'so it was disabled. Events are no longer sent to it; those already queued are kept.',
      '',
      'Once the endpoint answers again, check it with POST /v1/webhooks/{id}/test and turn the webhook back on',
      'with PATCH /v1/webhooks/{id} {"enabled": true}. Deliveries that failed can be sent again with',
      'POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry; GET /v1/webhooks/{id}/deliveries shows what the',
      'endpoint answered.',
    ].join('\n'),
  });
}
