import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { beginTicketChange, userActor } from '../ticket-activities/ticket-activity.recorder.js';
import { presentTicket, type Ticket } from '../tickets/ticket.presenter.js';
import { requireTicket } from '../tickets/ticket.service.js';
import { addTicketTags, removeTicketTags, resolveTicketTags } from './ticket-tag.lookup.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/**
 * Adds tags to a ticket or takes them off, under the ticket's row lock, with the timeline entry
 * (old and new set); tags it already has, or does not have, are no change. Answers the ticket.
 */
export async function changeTicketTags(
  deps: Deps,
  principal: Principal,
  id: string,
  change: { add: readonly string[] } | { remove: readonly string[] },
): Promise<Ticket> {
  const ticketId = await deps.db.transaction().execute(async (trx) => {
    const visible = await requireTicket(trx, principal, id);
    const timeline = await beginTicketChange(trx, deps, principal.organizationId, visible.id);
    const ticket = await requireTicket(trx, principal, visible.id);
    const adding = 'add' in change;
    const tags = await resolveTicketTags(trx, principal.organizationId, ticket.team_id, adding ? change.add : change.remove, {
      location: adding ? 'body' : 'query',
      field: 'tagIds',
    });
    if (adding) {
      await addTicketTags(trx, { id: ticket.id, organizationId: principal.organizationId }, tags, deps.clock.now().toISOString());
    } else {
      await removeTicketTags(trx, ticket.id, tags);
    }
    await timeline.finish(userActor(principal));
    return ticket.id;
  });
  return presentTicket(deps.db, await requireTicket(deps.db, principal, ticketId));
}
