import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate, readBoolean } from '../../db/dialect.js';
import { enqueueEmail } from '../../delivery/outbox/outbox.service.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { storableText } from '../../lib/storable-text.js';
import {
  clearFailingSince,
  countAttempts,
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

/**
 * Attempts in a row that may end with nothing recorded (the process stopped, or the database
 * refused even the plain failure) before the delivery is failed without being sent again, so
 * that the endpoint's later events go.
 */
export const MAX_UNRECORDED_ATTEMPTS = 3;
const MAX_ERROR_LENGTH = 500;

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

/** What a claimed delivery's attempt came to, to be recorded. */
interface Attempt {
  delivery: DeliveryRow;
  lockedUntil: string;
  startedAt: string;
  outcome: SendOutcome;
  /** The last attempt whatever the outcome: no retry follows. */
  final?: boolean;
}

/**
 * Sends a delivery this caller has claimed under `lockedUntil` and records the attempt. Answers the
 * outcome, or null when the claim was lost meanwhile (another worker took over, the webhook was
 * deleted), in which case nothing was written.
 *
 * Nothing a receiver answers can stop the endpoint's queue: the answer is stored without what the
 * databases refuse, and should the database still refuse the record, the attempt is recorded
 * again as a failure without the answer (it is retried, and counts toward disabling the endpoint).
 * A delivery claimed `MAX_UNRECORDED_ATTEMPTS` times with nothing recorded is failed without being sent.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  delivery: DeliveryRow,
  target: SendTargetRow,
  lockedUntil: string,
): Promise<SendOutcome | null> {
  const startedAt = deps.clock.now();
  const attempt = { delivery, lockedUntil, startedAt: startedAt.toISOString() };
  if (await unrecordedAttemptsRanOut(deps.db, delivery)) {
    const outcome = failure(
      `not sent again: ${MAX_UNRECORDED_ATTEMPTS} of its attempts ended with nothing recorded (the process stopped, or the database refused the record)`,
    );
    return record(deps, { ...attempt, outcome, final: true });
  }
  const secrets = signingSecrets(deps.box, target, startedAt);
  const outcome: SendOutcome = secrets
    ? await deps.sender.send(target.url, secrets, { id: delivery.id, at: startedAt, body: delivery.payload })
    : failure('the signing secret does not open with this SECRET_KEY: rotate the secret');
  return record(deps, {
    ...attempt,
    outcome: { ...outcome, responseBody: storableText(outcome.responseBody), error: storableText(outcome.error) },
  });
}

function failure(error: string): SendOutcome {
  return { ok: false, statusCode: null, latencyMs: 0, responseBody: null, responseTruncated: false, error };
}

/** Whether the earlier claims of this delivery that recorded no attempt reached the limit. */
async function unrecordedAttemptsRanOut(db: Kysely<DB>, delivery: DeliveryRow): Promise<boolean> {
  const earlier = Number(delivery.attempts) - 1;
  if (earlier < MAX_UNRECORDED_ATTEMPTS) {
    return false;
  }
  return earlier - (await countAttempts(db, delivery.id)) >= MAX_UNRECORDED_ATTEMPTS;
}

/** Records the attempt; if the database refuses that, records it as a failure saying so, without the answer. */
async function record(deps: DeliveryDeps, attempt: Attempt): Promise<SendOutcome | null> {
  const write = (written: Attempt) => deps.db.transaction().execute((trx) => recordAttempt(trx, deps, written));
  try {
    return (await write(attempt)) ? attempt.outcome : null;
  } catch (error) {
    const reason = storableText(error instanceof Error ? error.message : String(error));
    const { statusCode, latencyMs } = attempt.outcome;
    const outcome: SendOutcome = {
      ...failure(`counted as failed: the attempt could not be recorded (${reason})`.slice(0, MAX_ERROR_LENGTH)),
      statusCode,
      latencyMs,
    };
    return (await write({ ...attempt, outcome })) ? outcome : null;
  }
}

async function recordAttempt(
  trx: Transaction<DB>,
  deps: Pick<DeliveryDeps, 'clock' | 'ids'>,
  attempt: Attempt,
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
  const retry = !outcome.ok && !manual && !attempt.final && attemptsMade <= RETRY_DELAYS_MS.length;
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
