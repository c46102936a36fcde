import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import type { Principal } from '../../lib/principal.js';
import type { EventType } from '../../shared/event-types.js';
import { recordEvents } from '../events/event.recorder.js';
import {
  findChatTicketVisitor,
  insertChatTicketVisitor,
  markTyping,
  markVisitorsOnline,
  markVisitorsSeen,
  takeGoneVisitors,
  ticketsForEvents,
} from './chat-ticket-visitor.repository.js';
import { requireTicketAccess } from './ticket.service.js';

/**
 * Whether a chat ticket's visitor is there: the messenger reports its open panels (their streams'
 * heartbeats) and the visitor's typing; the console reads it (`GET /v1/tickets/{id}/chat-visitor`)
 * and follows it live through `chat.visitor_presence` and `chat.visitor_typing`. Every change of
 * state is a conditional update, so with several processes each is announced once.
 */

/** A visitor with no heartbeat for this long has left (a heartbeat comes every EVENT_STREAM_HEARTBEAT_MS). */
export const VISITOR_GONE_AFTER_MS = 45_000;
/** Typing is announced at most this often per ticket, and shown this long after the last report. */
export const TYPING_EVERY_MS = 3_000;
export const TYPING_SHOWN_MS = 6_000;

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
}

/** The visitor of a new chat ticket, there now (they just asked for a person), in the ticket's transaction. */
export async function startChatTicketVisitor(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'clock'>,
  ticket: { organizationId: string; id: string },
) {
  await insertChatTicketVisitor(trx, {
    ticket_id: ticket.id,
    organization_id: ticket.organizationId,
    online: true,
    last_seen_at: deps.clock.now().toISOString(),
    typing_at: null,
  });
}

/** The chat visitor of a ticket the caller may see, as the console shows them; a ticket of another kind is a 404. */
export async function getChatTicketVisitor(deps: Deps, principal: Principal, ticketId: string) {
  const ticket = await requireTicketAccess(deps.db, principal, ticketId);
  const row = await findChatTicketVisitor(deps.db, ticket.id);
  if (!row) {
    return null;
  }
  const now = deps.clock.now().getTime();
  const lastSeen = Date.parse(row.last_seen_at);
  return {
    ticketId: ticket.id,
    online: readBoolean(row.online) && now - lastSeen < VISITOR_GONE_AFTER_MS,
    lastSeenAt: row.last_seen_at,
    typing: row.typing_at !== null && now - Date.parse(row.typing_at) < TYPING_SHOWN_MS,
  };
}

type VisitorEventType = Extract<EventType, 'chat.visitor_presence' | 'chat.visitor_typing'>;

/** One event per ticket whose visitor changed, on the ticket (its visibility rules apply). */
async function announce(
  deps: Deps,
  type: VisitorEventType,
  changed: readonly { ticket_id: string; organization_id: string; last_seen_at: string }[],
  state: { online: boolean; typing: boolean },
): Promise<void> {
  if (changed.length === 0) {
    return;
  }
  await deps.db.transaction().execute(async (trx) => {
    const tickets = await ticketsForEvents(
      trx,
      changed.map((row) => row.ticket_id),
    );
    const byOrganization = new Map<string, typeof changed>();
    for (const row of changed) {
      byOrganization.set(row.organization_id, [...(byOrganization.get(row.organization_id) ?? []), row]);
    }
    for (const [organizationId, rows] of byOrganization) {
      const events = rows.flatMap((row) => {
        const ticket = tickets.get(row.ticket_id);
        return ticket
          ? [
              {
                type,
                actor: { type: 'system' as const, id: null, name: 'Messenger' },
                data: { ticketId: row.ticket_id, ...state, lastSeenAt: row.last_seen_at },
                ticket: { id: ticket.id, teamId: ticket.team_id, isPrivate: readBoolean(ticket.is_private) },
              },
            ]
          : [];
      });
      await recordEvents(trx, deps, organizationId, events);
    }
  });
}

/**
 * The visitors of these chat tickets have a panel open now: seen, and announced as online where
 * they were away.
 */
export async function reportChatVisitorsSeen(deps: Deps, ticketIds: readonly string[]): Promise<void> {
  if (ticketIds.length === 0) {
    return;
  }
  const at = deps.clock.now().toISOString();
  await markVisitorsSeen(deps.db, ticketIds, at);
  const back = await markVisitorsOnline(deps.db, ticketIds);
  await announce(deps, 'chat.visitor_presence', back, { online: true, typing: false });
}

/** The visitor is typing: announced at most once every `TYPING_EVERY_MS`. */
export async function reportChatVisitorTyping(deps: Deps, ticketId: string): Promise<void> {
  const now = deps.clock.now();
  const typed = await markTyping(deps.db, ticketId, now.toISOString(), new Date(now.getTime() - TYPING_EVERY_MS).toISOString());
  await announce(deps, 'chat.visitor_typing', typed, { online: true, typing: true });
}

/** Visitors quiet for `VISITOR_GONE_AFTER_MS` are away: each announced once, whichever process sweeps. */
export async function sweepGoneChatVisitors(deps: Deps): Promise<void> {
  const before = new Date(deps.clock.now().getTime() - VISITOR_GONE_AFTER_MS).toISOString();
  const gone = await takeGoneVisitors(deps.db, before);
  await announce(deps, 'chat.visitor_presence', gone, { online: false, typing: false });
}

/** When the chat ticket's visitor last had a panel open; undefined for a ticket that is not a chat. */
export async function chatVisitorLastSeen(db: Kysely<DB>, ticketId: string): Promise<string | undefined> {
  return (await findChatTicketVisitor(db, ticketId))?.last_seen_at;
}
