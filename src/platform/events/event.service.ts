import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import type { Principal } from '../../http/api-key-auth.js';
import { AppError } from '../../http/errors.js';
import { readTypedCursor } from '../../http/pagination.js';
import { keysetPage } from '../../lib/cursors.js';
import { requireOrgAdmin } from '../authorization.js';
import { type EventRow, listEvents } from './event.repository.js';
import type { ListEventsQuerySchema } from './event.schemas.js';
import { EVENT_TYPES, type EventType } from './event.table.js';

const KNOWN_TYPES = new Set<string>(EVENT_TYPES);

export function eventId(seq: number): string {
  return String(seq).padStart(16, '0');
}

export function toEvent(row: EventRow) {
  return {
    id: eventId(Number(row.seq)),
    type: row.type,
    organizationId: row.organization_id,
    occurredAt: row.occurred_at,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    data: readJson<unknown>(row.data),
    changes: readJson<{ field: string; oldValue: unknown; newValue: unknown }[]>(row.changes),
  };
}

export type Event = ReturnType<typeof toEvent>;

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
