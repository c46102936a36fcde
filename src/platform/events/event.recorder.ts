import type { CompiledQuery, Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import type { ActorType, EventType } from '../../shared/event-types.js';
import {
  type AttachedWrites,
  insertEvents,
  insertNumberedEvent,
  insertWithEvent,
  takeEventSeqs,
  type UnnumberedEvent,
} from './event.repository.js';

export type { AttachedKind, AttachedWrites } from './event.repository.js';

/**
 * Writes events into the organization's log, in the caller's transaction, so an event exists
 * exactly when its change commits.
 *
 * Order: each event takes the next number of its organization's log (`takeEventSeqs`), which locks
 * the organization's sequence row until commit. A reader that pages `seq > last` (the list, and
 * later the stream and the webhook worker) therefore never skips an event that commits late: a
 * lower number is always committed before a higher one becomes visible. A clock-based id (ULID) or
 * a plain sequence would not give that. The cost is that an organization's writers queue from
 * their first event to their commit, so callers record events as the LAST step of a transaction,
 * after every other row lock is taken (which also keeps lock order fixed: no deadlock with a
 * transaction that holds a ticket and waits for the sequence). Other organizations never wait.
 */

export interface EventActor {
  type: ActorType;
  id: string | null;
  /** Stored as it is when the event happens; a user's or contact's name is looked up when absent. */
  name?: string | null;
}

export interface NewEvent {
  type: EventType;
  actor: EventActor;
  /** The resource as the API answers it after the change. */
  data: unknown;
  /** For `ticket.updated`: the changed fields. */
  changes?: readonly unknown[] | null;
  /** The ticket the event is about, for readers that filter by what a user may see. */
  ticket?: { id: string; teamId: string; isPrivate: boolean } | null;
  /** An internal (private) comment, never shown to customers. */
  internal?: boolean;
  /** Something only this user (and admins) may see: a private note's author. */
  privateToUserId?: string | null;
}

export interface EventDeps {
  clock: Clock;
}

/** Writes `events` in order, numbered after the organization's last. */
export async function recordEvents(
  trx: Transaction<DB>,
  deps: EventDeps,
  organizationId: string,
  newEvents: readonly NewEvent[],
): Promise<void> {
  let events = newEvents;
  const pending = deferred.get(trx);
  if (pending) {
    deferred.delete(trx);
    events = [...pending.filter((entry) => entry.organizationId === organizationId).map((entry) => entry.event), ...events];
  }
  if (events.length === 0) {
    return;
  }
  const names = await actorNames(trx, events);
  const at = deps.clock.now().toISOString();
  const [only] = events;
  if (events.length === 1 && only) {
    await insertNumberedEvent(trx, unnumbered(organizationId, only, at, names));
    return;
  }
  const first = await takeEventSeqs(trx, organizationId, events.length);
  await insertEvents(
    trx,
    events.map((event, index) => ({ ...unnumbered(organizationId, event, at, names), seq: first + index })),
  );
}

function unnumbered(organizationId: string, event: NewEvent, at: string, names: ReadonlyMap<string, string>): UnnumberedEvent {
  return {
    organization_id: organizationId,
    type: event.type,
    occurred_at: at,
    actor_type: event.actor.type,
    actor_id: event.actor.id,
    actor_name: event.actor.name ?? (event.actor.id ? (names.get(`${event.actor.type}:${event.actor.id}`) ?? null) : null),
    data: writeJson(event.data) ?? 'null',
    changes: event.changes ? writeJson(event.changes) : null,
    ticket_id: event.ticket?.id ?? null,
    team_id: event.ticket?.teamId ?? null,
    ticket_is_private: event.ticket?.isPrivate ?? false,
    is_internal: event.internal ?? false,
    private_to_user_id: event.privateToUserId ?? null,
  };
}

/**
 * A change that is one INSERT … RETURNING (compiled) and its event, both or neither, without a
 * transaction of the caller's: on PostgreSQL one statement (see `insertWithEvent`), with what is
 * `attached` to it (the reports' counts of a reply). The actor's name must be given, since nothing
 * is read first. Answers the inserted row, or undefined when the insert wrote none.
 */
export async function insertRecordingEvent<Row>(
  db: Kysely<DB>,
  deps: EventDeps,
  organizationId: string,
  change: CompiledQuery<Row>,
  event: NewEvent & { actor: { name: string | null } },
  attached?: AttachedWrites,
): Promise<Row | undefined> {
  return insertWithEvent(db, change, unnumbered(organizationId, event, deps.clock.now().toISOString(), new Map()), attached);
}

/**
 * Events of a change made early in a transaction that goes on to lock other rows (a contact made
 * on first sight of an email, before routing locks agents): they wait, in order, and are written
 * before the transaction's next `recordEvents`, so the log's lock is still taken last. The caller
 * must record (or `flushDeferredEvents`) before it commits.
 */
const deferred = new WeakMap<Transaction<DB>, { organizationId: string; event: NewEvent }[]>();

export function deferEvent(trx: Transaction<DB>, organizationId: string, event: NewEvent): void {
  const pending = deferred.get(trx) ?? [];
  pending.push({ organizationId, event });
  deferred.set(trx, pending);
}

/** Writes the transaction's deferred events now (a path that ends without an event of its own). */
export async function flushDeferredEvents(trx: Transaction<DB>, deps: EventDeps, organizationId: string): Promise<void> {
  await recordEvents(trx, deps, organizationId, []);
}

export async function recordEvent(trx: Transaction<DB>, deps: EventDeps, organizationId: string, event: NewEvent): Promise<void> {
  await recordEvents(trx, deps, organizationId, [event]);
}

/** The names of the people acting, as they are now (the event keeps them as they were). */
async function actorNames(trx: Transaction<DB>, events: readonly NewEvent[]): Promise<Map<string, string>> {
  const wanted = (type: ActorType) => [
    ...new Set(events.filter((e) => e.actor.type === type && !e.actor.name && e.actor.id).map((e) => e.actor.id as string)),
  ];
  const names = new Map<string, string>();
  const userIds = wanted('user');
  if (userIds.length > 0) {
    for (const user of await trx.selectFrom('users').select(['id', 'name']).where('id', 'in', userIds).execute()) {
      names.set(`user:${user.id}`, user.name);
    }
  }
  const contactIds = wanted('customer_contact');
  if (contactIds.length > 0) {
    const contacts = await trx
      .selectFrom('customer_contacts')
      .select(['id', 'first_name', 'last_name', 'email'])
      .where('id', 'in', contactIds)
      .execute();
    for (const contact of contacts) {
      const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ') || contact.email;
      if (name) {
        names.set(`customer_contact:${contact.id}`, name);
      }
    }
  }
  return names;
}
