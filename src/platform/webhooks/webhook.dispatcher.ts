import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { EventType } from '../../shared/event-types.js';
import { toEvent } from '../events/event.presenter.js';
import { type EventViewer, loadEventAudience } from '../events/event.visibility.js';
import { readEventBatch } from '../events/event-log.service.js';
import {
  advanceDispatchCursor,
  findOwner,
  hasDeliveryInProgress,
  insertDeliveries,
  lockWebhookBehindLog,
} from './webhook.repository.js';

/**
 * Turns the organization's event log into deliveries, endpoint by endpoint. Each endpoint keeps a
 * cursor (`dispatched_seq`) into its organization's log; a pass locks the endpoint's row (others
 * skip it), reads the events after the cursor, keeps those of its types that its owner may see
 * now, inserts a delivery for each (the first due now unless an earlier one is still going, the others
 * waiting their turn) and moves the cursor, all in one transaction. The log is
 * numbered in commit order, so reading `seq > cursor` never skips an event that commits late; and
 * UNIQUE (webhook_id, event_seq) stops a second delivery of one event even if two passes overlap.
 */

export interface DispatchDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/** Events one endpoint takes per transaction. */
const EVENTS_PER_BATCH = 200;

/**
 * Dispatches one batch for each endpoint behind its log (at most `maxWebhooks` of them); answers
 * how many endpoints moved on.
 */
export async function dispatchEvents(deps: DispatchDeps, maxWebhooks = 50): Promise<number> {
  const done: string[] = [];
  while (done.length < maxWebhooks) {
    const webhookId = await deps.db.transaction().execute((trx) => dispatchBatch(trx, deps, done));
    if (webhookId === undefined) {
      break;
    }
    done.push(webhookId);
  }
  return done.length;
}

/** One batch of one endpoint not yet done this pass; answers its id, or undefined when none is behind. */
async function dispatchBatch(trx: Transaction<DB>, deps: DispatchDeps, exclude: readonly string[]) {
  const webhook = await lockWebhookBehindLog(trx, exclude);
  if (!webhook) {
    return undefined;
  }
  const organizationId = webhook.organization_id;
  const { events: batch, nextSeq: cursor } = await readEventBatch(trx, organizationId, {
    types: readJson<EventType[]>(webhook.event_types) ?? [],
    afterSeq: Number(webhook.dispatched_seq),
    limit: EVENTS_PER_BATCH,
  });

  const viewer = await ownerViewer(trx, webhook.owner_user_id);
  const audience = await loadEventAudience(trx, organizationId, batch);
  const at = deps.clock.now().toISOString();
  const visible = batch.filter((row) => audience.canSee(viewer, row));
  // In order: the first is due now unless an earlier delivery is still going; the rest wait for it.
  const firstDue = visible.length > 0 && !(await hasDeliveryInProgress(trx, webhook.id));
  await insertDeliveries(
    trx,
    visible.map((row, index) => ({
      id: deps.ids.ulid(),
      webhook_id: webhook.id,
      event_seq: Number(row.seq),
      event_type: row.type,
      payload: JSON.stringify(toEvent(row)),
      status: 'pending' as const,
      next_attempt_at: firstDue && index === 0 ? at : null,
      created_at: at,
      updated_at: at,
    })),
  );
  await advanceDispatchCursor(trx, webhook.id, cursor);
  return webhook.id;
}

/**
 * A webhook sees what its owner may see now: everything while they are an organization admin, as
 * a member their teams' private tickets and their own private notes; a deleted owner nothing private.
 */
async function ownerViewer(trx: Transaction<DB>, ownerId: string): Promise<EventViewer> {
  const owner = await findOwner(trx, ownerId);
  const active = owner !== undefined && owner.deleted_at === null;
  return { userId: active ? ownerId : '', seeAll: active && owner.user_type === 'ORG_ADMIN' };
}
