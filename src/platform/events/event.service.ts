import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { EVENT_TYPES, type EventType } from '../../shared/event-types.js';
import { requireOrgAdmin } from '../authorization.js';
import { toEvent } from './event.presenter.js';
import { findLastEventSeq, findOldestEventSeq, listEvents } from './event.repository.js';
import type { ListEventsQuerySchema, StreamEventsQuerySchema } from './event.schemas.js';
import { eventViewerOf } from './event.visibility.js';
import type { EventStreamPlan } from './event-stream.hub.js';

const KNOWN_TYPES = new Set<string>(EVENT_TYPES);

/** The requested types, each a known one: an unknown type is a 400 naming it. */
function requireKnownTypes(types: readonly string[] | undefined): EventType[] | undefined {
  if (!types || types.length === 0) {
    return undefined;
  }
  types.forEach((type, index) => {
    if (!KNOWN_TYPES.has(type)) {
      throw AppError.invalid(`type "${type}" is not an event type; known types: ${EVENT_TYPES.join(', ')}`, {
        location: 'query',
        path: ['type', index],
        rule: 'enum',
      });
    }
  });
  return [...new Set(types)] as EventType[];
}

/**
 * A page of the organization's event log, for organization admins (who may see every event,
 * private tickets and internal comments included). Keyset on the event number: a cursor holds the
 * last number of the page before.
 */
export async function listOrganizationEvents(db: Kysely<DB>, principal: Principal, query: Static<typeof ListEventsQuerySchema>) {
  requireOrgAdmin(principal);
  const types = requireKnownTypes(query.type);
  const after = query.occurredAfter === undefined ? undefined : new Date(query.occurredAfter).toISOString();
  const before = query.occurredBefore === undefined ? undefined : new Date(query.occurredBefore).toISOString();
  const [last] = readTypedCursor(query.cursor, ['integer']) ?? [];
  const limit = query.limit ?? 50;
  const rows = await listEvents(db, principal.organizationId, {
    types,
    occurredAfter: after,
    occurredBefore: before,
    afterSeq: last === undefined ? undefined : Number(last),
    order: query.order ?? 'desc',
    limit,
  });
  const page = keysetPage(rows, limit, (row) => [Number(row.seq)]);
  return { items: page.items.map(toEvent), nextCursor: page.nextCursor };
}

/**
 * What `GET /v1/events/stream` sends the caller: any user may follow the log, seeing what they may
 * see (`event.visibility.ts`). Without `lastEventId` the stream starts at the log's end; with one,
 * at that number, unless retention has deleted events after it (or it is past the log's end, a
 * number from elsewhere): then the client is told to reload, and the stream starts at the end.
 */
export async function planEventStream(
  db: Kysely<DB>,
  principal: Principal,
  query: Static<typeof StreamEventsQuerySchema>,
  lastEventIdHeader: string | undefined,
): Promise<EventStreamPlan> {
  const requested = requireKnownTypes(query.type);
  const types = requested ? new Set(requested) : null;
  // A reconnecting EventSource sends the header with the newest id; the query keeps the first one.
  const given = lastEventIdHeader ?? query.lastEventId;
  const logEnd = await findLastEventSeq(db, principal.organizationId);
  const plan = { organizationId: principal.organizationId, viewer: eventViewerOf(principal), types, logEnd };
  if (given === undefined) {
    return { ...plan, after: logEnd, reset: false };
  }
  const after = Number(given);
  if (after > logEnd) {
    return { ...plan, after: logEnd, reset: true };
  }
  if (after < logEnd) {
    const oldest = await findOldestEventSeq(db, principal.organizationId);
    if (oldest === null || oldest > after + 1) {
      return { ...plan, after: logEnd, reset: true };
    }
  }
  return { ...plan, after, reset: false };
}
