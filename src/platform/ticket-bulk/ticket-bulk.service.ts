import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { type CustomFieldValueEntry, requireMandatoryValues } from '../custom-fields/custom-field.values.js';
import { notifyTicketAssigned } from '../notifications/ticket-notification.service.js';
import { assignWaitingTicketsServedBy } from '../routing/routing.pipeline.js';
import { requireTeam } from '../teams/team.lookup.js';
import { beginTicketChange, type TicketChange, userActor } from '../ticket-activities/ticket-activity.recorder.js';
import { addTicketTags, removeTicketTags, resolveTicketTags } from '../ticket-tags/ticket-tag.lookup.js';
import { presentTicketsById } from '../tickets/ticket.lookup.js';
import { type TicketRow, updateTicket } from '../tickets/ticket.repository.js';
import { moveTicketToTeam, requireTicket, resolveAgent } from '../tickets/ticket.service.js';
import type { TicketTable } from '../tickets/ticket.table.js';
import { listTeamOptions, resolveTicketOption } from '../tickets/ticket-option.service.js';
import type { BulkChangeSchema, BulkUpdateSchema } from './ticket-bulk.schemas.js';

type BulkChange = Static<typeof BulkChangeSchema>;
type BulkUpdate = Static<typeof BulkUpdateSchema>;

interface Deps extends TicketEmailDeps {
  db: Kysely<DB>;
}

const KINDS = {
  status: ['statusId', 'statusName'],
  priority: ['priorityId', 'priorityName'],
  assignee: ['assignedAgentId', 'assignedAgentEmail'],
  team: ['teamId'],
  addTags: ['addTagIds'],
  removeTags: ['removeTagIds'],
} as const satisfies Record<string, readonly (keyof BulkChange)[]>;

type Kind = keyof typeof KINDS;

/** The one kind of change the body holds; none or several is a 400 naming `change`. */
function kindOf(change: BulkChange): Kind {
  const sent = (Object.keys(KINDS) as Kind[]).filter((kind) => KINDS[kind].some((field) => change[field] !== undefined));
  if (sent.length !== 1) {
    const names = Object.values(KINDS)
      .map((fields) => fields.join('/'))
      .join(', ');
    throw AppError.invalid(`change must hold exactly one of: ${names}${sent.length > 1 ? ` (got ${sent.join(', ')})` : ''}`, {
      location: 'body',
      path: ['change'],
      rule: 'oneOf',
    });
  }
  return sent[0] as Kind;
}

/** An error about one ticket, named by its place in `ticketIds` and its identifier; issues move under `change`. */
function aboutTicket(error: unknown, index: number, ticket: { ticket_identifier: string }): unknown {
  if (!(error instanceof AppError)) {
    return error;
  }
  return new AppError({
    code: error.code,
    message: `ticketIds[${index}] (${ticket.ticket_identifier}): ${error.message}`,
    issues: error.issues?.map((issue) => ({
      ...issue,
      path: issue.location === 'body' ? ['change', ...issue.path] : issue.path,
    })),
    cause: error,
  });
}

/**
 * Applies one change to up to 100 tickets, all or nothing: one transaction; the tickets are locked
 * in id order (so concurrent bulk updates over the same tickets take turns instead of deadlocking)
 * and each gets its timeline entries. Any ticket that cannot take the change (unknown or invisible:
 * 404; a status its team lacks, a tag of another team: 400) fails the whole request, naming it,
 * and nothing is written. Answers each ticket as it is now.
 */
export async function bulkUpdateTickets(deps: Deps, principal: Principal, body: BulkUpdate) {
  const kind = kindOf(body.change);
  const { organizationId } = principal;
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const refs = new Map<string, { index: number; ref: string }>();
    for (const [index, ref] of body.ticketIds.entries()) {
      const visible = await requireTicket(trx, principal, ref).catch((error: unknown) => {
        throw error instanceof AppError && error.code === 'NOT_FOUND'
          ? AppError.notFound(`Ticket not found: ticketIds[${index}] (${ref})`)
          : error;
      });
      if (!refs.has(visible.id)) {
        refs.set(visible.id, { index, ref });
      }
    }
    const target = kind === 'team' ? await requireTeam(trx, organizationId, body.change.teamId as string) : undefined;
    const ids = [...refs.keys()].sort();
    const changes = new Map<string, TicketChange>();
    for (const id of ids) {
      changes.set(id, await beginTicketChange(trx, deps, organizationId, id));
    }
    const changed = new Set<string>();
    const freed: string[] = [];
    for (const id of ids) {
      const ticket = await requireTicket(trx, principal, id);
      const place = refs.get(id)?.index ?? 0;
      const result = await applyChange(trx, deps, principal, ticket, kind, body.change, target).catch((error: unknown) => {
        throw aboutTicket(error, place, ticket);
      });
      if (result.freedAgentId) {
        freed.push(result.freedAgentId);
      }
    }
    // The timelines and events once every change is made: a change may lock more rows (a team's
    // ticket counter), and the event log's lock, taken by the first `finish`, must come after all
    // of them (see `event.recorder.ts`).
    for (const id of ids) {
      const before = changes.get(id) as TicketChange;
      const after = await before.finish(userActor(principal));
      if (JSON.stringify(after) !== JSON.stringify(before.before)) {
        changed.add(id);
      }
    }
    return { refs, changed, freed };
  });
  for (const agentId of new Set(outcome.freed)) {
    await assignWaitingTicketsServedBy(deps, organizationId, agentId, 'ticket_closed');
  }
  // Read without the visibility check: a move to a private team must not turn the answer into a 404.
  const changedTickets = await presentTicketsById(deps.db, organizationId, [...outcome.refs.keys()]);
  const tickets = new Map(changedTickets.map((ticket) => [ticket.id, ticket]));
  const results = [...outcome.refs.entries()].flatMap(([id, { ref }]) => {
    const ticket = tickets.get(id);
    return ticket ? [{ ref, id, changed: outcome.changed.has(id), ticket }] : [];
  });
  return { results, changed: outcome.changed.size };
}

/** One ticket's part of a bulk update, by the rules `PATCH /v1/tickets/{id}` follows. */
async function applyChange(
  trx: Transaction<DB>,
  deps: Deps,
  principal: Principal,
  ticket: TicketRow,
  kind: Kind,
  change: BulkChange,
  target: { id: string; organization_id: string; identifier: string } | undefined,
): Promise<{ freedAgentId: string | null }> {
  const { organizationId } = principal;
  const at = deps.clock.now().toISOString();
  const team = { id: ticket.team_id, organization_id: ticket.organization_id };
  const ref = { id: ticket.id, organizationId };
  const set = async (changes: Updateable<TicketTable>) =>
    updateTicket(trx, organizationId, ticket.id, { ...changes, updated_at: at });
  switch (kind) {
    case 'status': {
      const status = resolveTicketOption(
        await listTeamOptions(trx, deps, team, 'status'),
        { id: change.statusId, name: change.statusName },
        { idField: 'statusId', nameField: 'statusName', required: true },
      );
      if (!status || status.id === ticket.status_id) {
        return { freedAgentId: null };
      }
      const closes = readBoolean(status.is_closed) && ticket.closed_at === null;
      if (closes) {
        const values = readJson<CustomFieldValueEntry[]>(ticket.custom_field_values) ?? [];
        await requireMandatoryValues(trx, organizationId, 'ticket', values, { teamId: ticket.team_id, on: 'close' });
      }
      await set({ status_id: status.id, closed_at: readBoolean(status.is_closed) ? at : null });
      return { freedAgentId: closes ? ticket.assigned_agent_id : null };
    }
    case 'priority': {
      const priority = resolveTicketOption(
        await listTeamOptions(trx, deps, team, 'priority'),
        { id: change.priorityId, name: change.priorityName },
        { idField: 'priorityId', nameField: 'priorityName', required: true },
      );
      if (priority && priority.id !== ticket.priority_id) {
        await set({ priority_id: priority.id });
      }
      return { freedAgentId: null };
    }
    case 'assignee': {
      const agentId = await resolveAgent(trx, organizationId, change);
      if (agentId !== ticket.assigned_agent_id) {
        await set({ assigned_agent_id: agentId, assigned_at: agentId ? at : null, awaiting_assignment_since: null });
        if (agentId) {
          await notifyTicketAssigned(trx, deps, { organizationId, ticketId: ticket.id, actorUserId: principal.userId });
        }
      }
      return { freedAgentId: null };
    }
    case 'team': {
      if (target && target.id !== ticket.team_id) {
        await moveTicketToTeam(trx, deps, ticket, target);
      }
      return { freedAgentId: null };
    }
    case 'addTags':
    case 'removeTags': {
      const adding = kind === 'addTags';
      const refs = (adding ? change.addTagIds : change.removeTagIds) ?? [];
      const field = adding ? 'addTagIds' : 'removeTagIds';
      const tags = await resolveTicketTags(trx, organizationId, ticket.team_id, refs, { location: 'body', field });
      if (adding) {
        await addTicketTags(trx, ref, tags, at);
      } else {
        await removeTicketTags(trx, ticket.id, tags);
      }
      return { freedAgentId: null };
    }
  }
}
