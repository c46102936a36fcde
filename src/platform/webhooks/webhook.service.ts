import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate, readBoolean, writeJson } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import { type OutboundPolicy, staticUrlProblem, urlAllowed } from '../../lib/guarded-fetch.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { EVENT_TYPES, type EventType } from '../../shared/event-types.js';
import { requireOrgAdmin } from '../authorization.js';
import { lastEventSeq } from '../events/event-log.service.js';
import { findLiveUser } from '../users/user.lookup.js';
import { attemptDelivery, DELIVERY_LEASE_MS } from './webhook.delivery.js';
import { toDelivery, toWebhook } from './webhook.presenter.js';
import {
  type DeliveryRow,
  deleteWebhook,
  findDelivery,
  findSendTargets,
  findWebhook,
  insertClaimedDelivery,
  insertWebhook,
  listAttempts,
  listDeliveries,
  listWebhooks,
  REDELIVERABLE_STATUSES,
  requeueDelivery,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookRow,
} from './webhook.repository.js';
import type { CreateWebhook, ListDeliveriesQuery, UpdateWebhook } from './webhook.schemas.js';
import type { WebhookSender } from './webhook.sender.js';
import { generateWebhookSecret, sealWebhookSecret } from './webhook.signing.js';
import type { WebhookTable } from './webhook.table.js';
/**
 * Webhooks are managed by organization admins, like the event log they deliver. Each has an owner
 * (its creator), whose visibility filters what it receives (see `webhook.dispatcher.ts`).
 */

export interface WebhookRuntime {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  policy: OutboundPolicy;
  box: SecretBox;
  sender: WebhookSender;
}

/** After a rotation the previous secret keeps signing this long, so receivers can switch over. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;
export const WEBHOOK_NOT_FOUND = 'Webhook not found!';
const DELIVERY_NOT_FOUND = 'Webhook delivery not found!';
const KNOWN_TYPES = new Set<string>(EVENT_TYPES);

export type Delivery = ReturnType<typeof toDelivery>;

/** What registering and changing an endpoint use: no sender (`db` may be a transaction of the caller's). */
export type WebhookWriteRuntime = Pick<WebhookRuntime, 'db' | 'clock' | 'ids' | 'policy' | 'box'>;

async function withAttempts(db: Kysely<DB>, rows: readonly DeliveryRow[]): Promise<Delivery[]> {
  const attempts = await listAttempts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toDelivery(
      row,
      attempts.filter((attempt) => attempt.delivery_id === row.id),
    ),
  );
}

async function oneWithAttempts(db: Kysely<DB>, row: DeliveryRow): Promise<Delivery> {
  return toDelivery(row, await listAttempts(db, [row.id]));
}

/** The URL, if the outbound guard lets it out: its rules, then where the name resolves to. */
async function requireAllowedUrl(policy: OutboundPolicy, url: string): Promise<string> {
  const problem = staticUrlProblem(url, policy, 'url');
  if (problem) {
    throw AppError.invalid(problem, { location: 'body', path: ['url'], rule: 'url' });
  }
  if (!(await urlAllowed(url, policy))) {
    throw AppError.invalid('url resolves to a private or reserved address', { location: 'body', path: ['url'], rule: 'url' });
  }
  return url;
}

/** Each type a known event type (a 400 naming the first unknown one), duplicates dropped. */
function requireKnownTypes(types: readonly string[]): EventType[] {
  types.forEach((type, index) => {
    if (!KNOWN_TYPES.has(type)) {
      throw AppError.invalid(`eventTypes: "${type}" is not an event type; known types: ${EVENT_TYPES.join(', ')}`, {
        location: 'body',
        path: ['eventTypes', index],
        rule: 'enum',
      });
    }
  });
  return [...new Set(types)] as EventType[];
}

async function requireWebhook(db: Kysely<DB>, principal: Principal, id: string): Promise<WebhookRow> {
  const webhook = await findWebhook(db, principal.organizationId, id);
  if (!webhook) {
    throw AppError.notFound(WEBHOOK_NOT_FOUND);
  }
  return webhook;
}

/**
 * Registers an endpoint, owned by the caller, receiving the organization's events from now on (its
 * cursor starts at the log's last number). The answer holds the signing secret, shown only here.
 */
export async function createWebhook(runtime: WebhookWriteRuntime, principal: Principal, input: CreateWebhook) {
  requireOrgAdmin(principal);
  const url = await requireAllowedUrl(runtime.policy, input.url);
  const eventTypes = requireKnownTypes(input.eventTypes);
  const id = runtime.ids.ulid();
  const secret = generateWebhookSecret();
  const at = runtime.clock.now().toISOString();
  const enabled = input.enabled ?? true;
  const row = await insertWebhook(runtime.db, {
    id,
    organization_id: principal.organizationId,
    owner_user_id: principal.userId,
    url,
    event_types: writeJson(eventTypes) ?? '[]',
    description: input.description ?? null,
    enabled,
    secret_encrypted: sealWebhookSecret(runtime.box, id, secret),
    dispatched_seq: await lastEventSeq(runtime.db, principal.organizationId),
    disabled_reason: enabled ? null : 'manual',
    disabled_at: enabled ? null : at,
    created_at: at,
    updated_at: at,
  });
  return { ...toWebhook(row), secret };
}

export async function listOrganizationWebhooks(db: Kysely<DB>, principal: Principal, query: { cursor?: string; limit?: number }) {
  requireOrgAdmin(principal);
  const [afterId] = readTypedCursor(query.cursor, ['text']) ?? [];
  const limit = query.limit ?? 50;
  const rows = await listWebhooks(db, principal.organizationId, {
    afterId: afterId === undefined ? undefined : String(afterId),
    limit,
  });
  const page = keysetPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(toWebhook), nextCursor: page.nextCursor };
}

export async function getWebhook(db: Kysely<DB>, principal: Principal, id: string) {
  requireOrgAdmin(principal);
  return toWebhook(await requireWebhook(db, principal, id));
}

/**
 * Changes the fields sent. Turning an endpoint off records why (`manual`); turning it on clears
 * its failure state, so it gets three days again. Under the row's lock, so a concurrent change or
 * the worker disabling it is not undone.
 */
export async function changeWebhook(runtime: WebhookWriteRuntime, principal: Principal, id: string, input: UpdateWebhook) {
  requireOrgAdmin(principal);
  const url = input.url === undefined ? undefined : await requireAllowedUrl(runtime.policy, input.url);
  const eventTypes = input.eventTypes === undefined ? undefined : requireKnownTypes(input.eventTypes);
  const row = await inTransaction(runtime.db, async (trx) => {
    const current = await forUpdate(
      trx,
      trx
        .selectFrom('webhooks')
        .select(['id', 'enabled'])
        .where('organization_id', '=', principal.organizationId)
        .where('id', '=', id),
    ).executeTakeFirst();
    if (!current) {
      throw AppError.notFound(WEBHOOK_NOT_FOUND);
    }
    const at = runtime.clock.now().toISOString();
    const changes: Updateable<WebhookTable> = {};
    if (url !== undefined) {
      changes.url = url;
    }
    if (eventTypes !== undefined) {
      changes.event_types = writeJson(eventTypes) ?? '[]';
    }
    if (input.description !== undefined) {
      changes.description = input.description;
    }
    const wasEnabled = readBoolean(current.enabled);
    if (input.enabled === true && !wasEnabled) {
      Object.assign(changes, { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
    } else if (input.enabled === false && wasEnabled) {
      Object.assign(changes, { enabled: false, disabled_reason: 'manual', disabled_at: at });
    }
    if (Object.keys(changes).length === 0) {
      return findWebhook(trx, principal.organizationId, id);
    }
    return updateWebhook(trx, principal.organizationId, id, { ...changes, updated_at: at });
  });
  if (!row) {
    throw AppError.notFound(WEBHOOK_NOT_FOUND);
  }
  return toWebhook(row);
}

/** Deletes an endpoint with its deliveries; answers the deleted endpoint. */
export async function removeWebhook(db: Kysely<DB>, principal: Principal, id: string) {
  requireOrgAdmin(principal);
  const row = await deleteWebhook(db, principal.organizationId, id);
  if (!row) {
    throw AppError.notFound(WEBHOOK_NOT_FOUND);
  }
  return toWebhook(row);
}

/**
 * A new signing secret, shown in the answer only. The one it replaces keeps signing beside it for
 * 24 hours (rotating again within them drops the older one at once).
 */
export async function rotateSecret(runtime: WebhookRuntime, principal: Principal, id: string) {
  requireOrgAdmin(principal);
  const secret = generateWebhookSecret();
  const now = runtime.clock.now();
  const row = await rotateWebhookSecret(runtime.db, principal.organizationId, id, {
    sealedSecret: sealWebhookSecret(runtime.box, id, secret),
    previousExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS).toISOString(),
    now: now.toISOString(),
  });
  if (!row) {
    throw AppError.notFound(WEBHOOK_NOT_FOUND);
  }
  return { ...toWebhook(row), secret };
}

/** An endpoint's deliveries, newest first, each with its attempts; keyset on the delivery id. */
export async function listWebhookDeliveries(db: Kysely<DB>, principal: Principal, id: string, query: ListDeliveriesQuery) {
  requireOrgAdmin(principal);
  const webhook = await requireWebhook(db, principal, id);
  const [beforeId] = readTypedCursor(query.cursor, ['text']) ?? [];
  const limit = query.limit ?? 20;
  const rows = await listDeliveries(db, webhook.id, {
    status: query.status,
    beforeId: beforeId === undefined ? undefined : String(beforeId),
    limit,
  });
  const page = keysetPage(rows, limit, (row) => [row.id]);
  return { items: await withAttempts(db, page.items), nextCursor: page.nextCursor };
}

/**
 * Sends a delivered or failed delivery again, once, with the next worker pass: same `webhook-id`
 * and body, freshly signed, out of the endpoint's order (it does not hold back later events, and
 * is not retried if it fails). A pending or delivering one is a 409: it is going already.
 */
export async function retryDelivery(runtime: WebhookRuntime, principal: Principal, id: string, deliveryId: string) {
  requireOrgAdmin(principal);
  const webhook = await requireWebhook(runtime.db, principal, id);
  if (!readBoolean(webhook.enabled)) {
    throw AppError.conflict('The webhook is disabled: enable it (PATCH enabled=true) before retrying its deliveries');
  }
  const requeued = await requeueDelivery(runtime.db, webhook.id, deliveryId, runtime.clock.now().toISOString());
  if (requeued) {
    return oneWithAttempts(runtime.db, requeued);
  }
  // Only to word the error: the UPDATE above decided, and nothing is written here.
  const delivery = await findDelivery(runtime.db, webhook.id, deliveryId);
  if (!delivery) {
    throw AppError.notFound(DELIVERY_NOT_FOUND);
  }
  throw AppError.conflict(
    `Only ${REDELIVERABLE_STATUSES.join(' or ')} deliveries can be retried; this delivery is ${delivery.status}`,
  );
}

/**
 * Sends a `webhook.test` event now, from this request, and answers the delivery with its attempt.
 * Out of the endpoint's order, never retried, and not counted toward the endpoint's failing streak;
 * sent even while the endpoint is disabled, to check it before enabling it again.
 */
export async function sendTestEvent(runtime: WebhookRuntime, principal: Principal, id: string) {
  requireOrgAdmin(principal);
  const webhook = await requireWebhook(runtime.db, principal, id);
  const [target] = await findSendTargets(runtime.db, [webhook.id]);
  const actor = await findLiveUser(runtime.db, principal.organizationId, principal.userId);
  if (!target) {
    throw AppError.notFound(WEBHOOK_NOT_FOUND);
  }
  const now = runtime.clock.now();
  const at = now.toISOString();
  const lockedUntil = new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString();
  const payload = {
    id: null,
    type: 'webhook.test',
    organizationId: principal.organizationId,
    occurredAt: at,
    actor: { type: 'user', id: principal.userId, name: actor?.name ?? null },
    data: { webhookId: webhook.id, message: 'A test event from Switchboard: this endpoint receives and verifies deliveries.' },
    changes: null,
  };
  const delivery = await insertClaimedDelivery(runtime.db, {
    id: runtime.ids.ulid(),
    webhook_id: webhook.id,
    event_seq: null,
    event_type: 'webhook.test',
    payload: JSON.stringify(payload),
    status: 'delivering',
    manual: true,
    attempts: 1,
    next_attempt_at: null,
    locked_until: lockedUntil,
    created_at: at,
    updated_at: at,
  });
  await attemptDelivery(runtime, delivery, target, lockedUntil);
  const sent = await findDelivery(runtime.db, webhook.id, delivery.id);
  if (!sent) {
    // Deleted while the test was under way.
    throw AppError.notFound(WEBHOOK_NOT_FOUND);
  }
  return oneWithAttempts(runtime.db, sent);
}
