import type { Static } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson, writeJson } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { keysetPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { accountExists } from '../accounts/account.lookup.js';
import { isOrgAdmin } from '../authorization.js';
import {
  type CustomFieldValueEntry,
  mergeCustomFieldValues,
  requireMandatoryValues,
  validateCustomFieldValues,
} from '../custom-fields/custom-field.values.js';
import { notifyTicketAssigned } from '../notifications/ticket-notification.service.js';
import { assignWaitingTicketsServedBy } from '../routing/routing.pipeline.js';
import { isTeamMember, requireTeam } from '../teams/team.lookup.js';
import { requireManagedTeam } from '../teams/team.service.js';
import { beginTicketChange, userActor } from '../ticket-activities/ticket-activity.recorder.js';
import { reconcileTicketsInStatus } from '../ticket-sla/ticket-sla.service.js';
import { moveTicketTags, replaceTicketTags, resolveTicketTags } from '../ticket-tags/ticket-tag.lookup.js';
import { findOrganizationUserId } from '../users/user.lookup.js';
import { presentTicket, presentTickets, type Ticket } from './ticket.presenter.js';
import {
  findTicketAccess,
  findTicketById,
  listTickets,
  nextTicketNumber,
  type TicketAccessRow,
  type TicketRow,
  updateTicket,
} from './ticket.repository.js';
import type { UpdateTicketSchema, UpdateTicketStatus } from './ticket.schemas.js';
import type { TicketTable } from './ticket.table.js';
import { readTicketCursor, ticketCursorKeys } from './ticket-cursors.js';
import { writeTicketCustomFieldValues } from './ticket-custom-field-filters.js';
import { requireTeams, resolveTicketQuery, type TicketFilterQuery } from './ticket-filters.js';
import { toTicketOption } from './ticket-option.presenter.js';
import { findTicketStatus, type TicketOptionRow, updateTicketOption } from './ticket-option.repository.js';
import { listTeamOptions, loadTeamOptions, type OptionName, remapOptions, resolveTicketOption } from './ticket-option.service.js';

type UpdateTicket = Static<typeof UpdateTicketSchema>;

interface Deps extends TicketEmailDeps {
  db: Kysely<DB>;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

const ULID = new RegExp(ULID_PATTERN);

/**
 * The ticket named by a path id, as every ticket route and the comment endpoint see it: a blank id
 * is the contract's 400; anything that is not a live ticket of the caller's organization that the
 * caller may see is the contract's 404.
 */
export async function requireTicket(
  db: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  id: string | undefined,
): Promise<TicketRow> {
  const ref = ticketRefOf(id);
  const ticket = ref ? await findTicketById(db, principal.organizationId, ref.value, ref.key) : undefined;
  if (!ticket || !(seenWithoutLookup(principal, ticket) || (await isTeamMember(db, ticket.team_id, principal.userId)))) {
    throw AppError.notFound('Ticket not found!');
  }
  return ticket;
}

/**
 * `requireTicket` for the routes of a ticket's comments, which need only who may see the ticket and
 * what its emails show: one narrow statement instead of the read model and a membership lookup.
 */
export async function requireTicketAccess(
  db: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  id: string | undefined,
): Promise<TicketAccessRow> {
  const ref = ticketRefOf(id);
  const ticket = ref ? await findTicketAccess(db, principal.organizationId, ref.value, principal.userId, ref.key) : undefined;
  const visible =
    ticket !== undefined &&
    (!readBoolean(ticket.is_private) ||
      isOrgAdmin(principal) ||
      ticket.assigned_agent_id === principal.userId ||
      readBoolean(ticket.viewer_is_member));
  if (!ticket || !visible) {
    throw AppError.notFound('Ticket not found!');
  }
  return ticket;
}

/** `WED-5`, `wed-5`: a team identifier (a letter, then up to 9 letters or digits) and a number. */
const TICKET_IDENTIFIER = /^[A-Za-z][A-Za-z0-9]{0,9}-[1-9][0-9]{0,9}$/;

/**
 * How a path names a ticket: its id (a ULID), or its `ticketIdentifier` in any case, looked up in
 * lower case on `tickets_organization_identifier`; null for anything else (a 404).
 */
function ticketRefOf(id: string | undefined): { key: 'id' | 'identifier'; value: string } | null {
  const ticketId = id?.trim() ?? '';
  if (ticketId === '') {
    throw AppError.invalid('Ticket ID is required!');
  }
  if (ULID.test(ticketId)) {
    return { key: 'id', value: ticketId };
  }
  return TICKET_IDENTIFIER.test(ticketId) ? { key: 'identifier', value: ticketId.toLowerCase() } : null;
}

/** Whether the caller sees the ticket without asking whether it is a member of its team (a public ticket, an admin, its assignee). */
function seenWithoutLookup(principal: Principal, ticket: TicketRow): boolean {
  return !readBoolean(ticket.is_private) || isOrgAdmin(principal) || ticket.assigned_agent_id === principal.userId;
}

/**
 * `assignedAgentId` wins over `assignedAgentEmail`; either must name a user of the organization.
 * Null when neither names one (unassign). Bulk changes resolve their assignee with it too.
 */
export async function resolveAgent(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  input: { assignedAgentId?: string | null; assignedAgentEmail?: string | null },
) {
  if (input.assignedAgentId) {
    const userId = await findOrganizationUserId(db, organizationId, { id: input.assignedAgentId });
    if (!userId) {
      throw AppError.invalid('assignedAgentId must be a user of the organization', {
        location: 'body',
        path: ['assignedAgentId'],
        rule: 'reference',
      });
    }
    return userId;
  }
  if (input.assignedAgentEmail) {
    const userId = await findOrganizationUserId(db, organizationId, { email: input.assignedAgentEmail });
    if (!userId) {
      throw AppError.invalid('assignedAgentEmail must be a user of the organization', {
        location: 'body',
        path: ['assignedAgentEmail'],
        rule: 'reference',
      });
    }
    return userId;
  }
  return null;
}

/** A ticket's `accountId` must name a live account of the organization. */
export async function checkAccount(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  accountId: string | null | undefined,
) {
  if (accountId && !(await accountExists(db, organizationId, accountId))) {
    throw AppError.invalid('accountId must be an account of the organization', {
      location: 'body',
      path: ['accountId'],
      rule: 'reference',
    });
  }
}

/** The status, priority and type of a ticket as keys and display names, for routing rules and for moves. */
export async function currentOptions(trx: Transaction<DB>, deps: Deps, ticket: TicketRow) {
  const options = await loadTeamOptions(trx, deps, { id: ticket.team_id, organization_id: ticket.organization_id });
  const named = (rows: TicketOptionRow[], id: string | null, displayName: string | null): OptionName | null => {
    const row = rows.find((candidate) => candidate.id === id);
    if (row) {
      return row;
    }
    return displayName === null ? null : { name: displayName.toLowerCase(), display_name: displayName };
  };
  return {
    status: named(options.statuses, ticket.status_id, ticket.status_name),
    priority: named(options.priorities, ticket.priority_id, ticket.priority_name),
    type: named(options.types, ticket.type_id, ticket.type_name),
  };
}

/**
 * Moves a ticket to another team: it takes the next number of that team (ticket numbers are unique
 * per team, as in Linear) and the new team's options standing for its status, priority and type.
 * Answers the identifier it had.
 */
export async function moveTicketToTeam(
  trx: Transaction<DB>,
  deps: Deps,
  ticket: TicketRow,
  team: { id: string; organization_id: string; identifier: string },
): Promise<string> {
  const options = remapOptions(await loadTeamOptions(trx, deps, team), await currentOptions(trx, deps, ticket));
  const number = await nextTicketNumber(trx, team.id);
  await updateTicket(trx, ticket.organization_id, ticket.id, {
    team_id: team.id,
    ticket_number: number,
    ticket_identifier: `${team.identifier}-${number}`,
    status_id: options.status.id,
    priority_id: options.priority.id,
    type_id: options.type?.id ?? null,
    updated_at: deps.clock.now().toISOString(),
  });
  await moveTicketTags(trx, { id: ticket.id, organizationId: ticket.organization_id }, team.id, deps.clock.now().toISOString());
  return ticket.ticket_identifier;
}

/** `now` reads SLA targets past due as breached. */
export async function getTicket(db: Kysely<DB>, principal: Principal, id: string, now?: Date): Promise<Ticket> {
  return presentTicket(db, await requireTicket(db, principal, id), now);
}

/**
 * A page of the tickets the caller may see, filtered and sorted (`ticket-filters.ts`; newest first
 * by default), by 0-based `page` or by `cursor`.
 */
export async function listVisibleTickets(
  db: Kysely<DB>,
  principal: Principal,
  query: TicketFilterQuery & { page?: number; limit?: number; cursor?: string },
  now?: Date,
): Promise<{ items: Ticket[]; nextCursor: string | null }> {
  const resolved = await resolveTicketQuery(db, principal, query, { teamsCheckedByCaller: true, now });
  const after = readTicketCursor(query, resolved);
  const limit = query.limit ?? 10;
  const rows = await listTickets(db, principal.organizationId, {
    viewerId: principal.userId,
    seeAll: isOrgAdmin(principal),
    filters: resolved.filters,
    sort: resolved.sort,
    offset: after ? 0 : (query.page ?? 0) * limit,
    after,
    limit: limit + 1,
    onlyOfActiveTeams: true,
  });
  if (rows.length === 0) {
    // The page checked the team filter: an empty one may be a team that is not the caller's (404).
    await requireTeams(db, principal.organizationId, resolved.filters.teamIds);
  }
  const page = keysetPage(rows, limit, (row) => ticketCursorKeys(resolved.sort, resolved.fingerprint, row));
  return { items: await presentTickets(db, page.items, now), nextCursor: page.nextCursor };
}

export async function updateTicketFields(deps: Deps, principal: Principal, id: string, input: UpdateTicket): Promise<Ticket> {
  const freedAgentId = await deps.db.transaction().execute(async (trx) => {
    // Locked before it is read, so concurrent changes take turns and each timeline entry's old value is current.
    const visible = await requireTicket(trx, principal, id);
    const change = await beginTicketChange(trx, deps, principal.organizationId, visible.id);
    const freed = await applyTicketFieldChanges(trx, deps, principal, await requireTicket(trx, principal, visible.id), input);
    await change.finish(userActor(principal));
    return freed;
  });
  if (freedAgentId) {
    // Closing a ticket frees its agent's capacity: waiting tickets of the agent's teams may go now.
    await assignWaitingTicketsServedBy(deps, principal.organizationId, freedAgentId, 'ticket_closed');
  }
  return presentTicket(deps.db, await requireTicket(deps.db, principal, id), deps.clock.now());
}

/**
 * The changes of `PATCH /v1/tickets/{id}`, with all its rules, in the caller's transaction on a
 * ticket it read there under its row lock (`beginTicketChange`, whose `finish` the caller calls to
 * write the timeline); a macro applies its actions so. Answers the agent whose capacity closing the
 * ticket freed, for `assignWaitingTicketsServedBy` once the transaction has committed.
 */
export async function applyTicketFieldChanges(
  trx: Transaction<DB>,
  deps: Deps,
  principal: Principal,
  ticket: TicketRow,
  input: UpdateTicket,
): Promise<string | null> {
  const at = deps.clock.now().toISOString();
  const changes: Updateable<TicketTable> = { updated_at: at, ...(await optionChanges(trx, deps, ticket, input, at)) };
  if (input.assignedAgentId !== undefined || input.assignedAgentEmail !== undefined) {
    const agentId = await resolveAgent(trx, principal.organizationId, input);
    if (agentId !== ticket.assigned_agent_id) {
      changes.assigned_agent_id = agentId;
      changes.assigned_at = agentId ? at : null;
      // Someone chose the assignee by hand: the ticket no longer waits for routing.
      changes.awaiting_assignment_since = null;
    }
  }
  if (input.title !== undefined) {
    changes.title = input.title.trim();
  }
  await checkAccount(trx, principal.organizationId, input.accountId);
  for (const [field, column] of [
    ['description', 'description'],
    ['source', 'source'],
    ['accountId', 'account_id'],
  ] as const) {
    if (input[field] !== undefined) {
      changes[column] = input[field];
    }
  }
  if (input.isPrivate !== undefined) {
    changes.is_private = input.isPrivate;
  }
  if (input.metadata !== undefined) {
    changes.metadata = writeJson(input.metadata);
  }
  if (input.dueDate !== undefined) {
    changes.due_date = input.dueDate ? new Date(input.dueDate).toISOString() : null;
  }
  const storedValues = readJson<CustomFieldValueEntry[]>(ticket.custom_field_values) ?? [];
  const values = input.customFieldValues
    ? mergeCustomFieldValues(
        storedValues,
        await validateCustomFieldValues(trx, principal.organizationId, 'ticket', input.customFieldValues, {
          onCreate: false,
          teamId: ticket.team_id,
          storedFieldIds: storedValues.map((entry) => entry.fieldId),
        }),
      )
    : storedValues;
  if (typeof changes.closed_at === 'string' && ticket.closed_at === null) {
    // Closing: every mandatoryOnClose field of the ticket's team must hold a value by now.
    await requireMandatoryValues(trx, principal.organizationId, 'ticket', values, { teamId: ticket.team_id, on: 'close' });
  }
  if (input.customFieldValues) {
    changes.custom_field_values = JSON.stringify(values);
    await writeTicketCustomFieldValues(trx, ticket, values);
  }
  if (input.tagIds !== undefined) {
    const tags = await resolveTicketTags(trx, principal.organizationId, ticket.team_id, input.tagIds, {
      location: 'body',
      field: 'tagIds',
    });
    await replaceTicketTags(trx, { id: ticket.id, organizationId: principal.organizationId }, tags, at);
  }
  await updateTicket(trx, principal.organizationId, ticket.id, changes);
  if (changes.assigned_agent_id) {
    await notifyTicketAssigned(trx, deps, {
      organizationId: principal.organizationId,
      ticketId: ticket.id,
      actorUserId: principal.userId,
    });
  }
  const closes = typeof changes.closed_at === 'string' && ticket.closed_at === null;
  return closes ? ticket.assigned_agent_id : null;
}

/** The status, priority and type a change names, as columns; a status that closes the ticket sets `closed_at`. */
async function optionChanges(
  trx: Transaction<DB>,
  deps: Deps,
  ticket: TicketRow,
  input: UpdateTicket,
  at: string,
): Promise<Updateable<TicketTable>> {
  const team = { id: ticket.team_id, organization_id: ticket.organization_id };
  const changes: Updateable<TicketTable> = {};
  if (input.statusId || input.statusName) {
    const options = await listTeamOptions(trx, deps, team, 'status');
    const status = resolveTicketOption(
      options,
      { id: input.statusId, name: input.statusName },
      { idField: 'statusId', nameField: 'statusName', required: true },
    );
    if (status && status.id !== ticket.status_id) {
      changes.status_id = status.id;
      changes.closed_at = readBoolean(status.is_closed) ? at : null;
    }
  }
  if (input.priorityId || input.priorityName) {
    const options = await listTeamOptions(trx, deps, team, 'priority');
    changes.priority_id = resolveTicketOption(
      options,
      { id: input.priorityId, name: input.priorityName },
      { idField: 'priorityId', nameField: 'priorityName', required: true },
    )?.id;
  }
  if (input.typeId !== undefined) {
    const options = await listTeamOptions(trx, deps, team, 'type');
    changes.type_id =
      resolveTicketOption(options, { id: input.typeId }, { idField: 'typeId', nameField: 'typeId', required: false })?.id ?? null;
  }
  return changes;
}

/** Soft delete: the ticket and its comments stay in the database, and every read answers 404. */
export async function deleteTicket(deps: Deps, principal: Principal, id: string): Promise<Ticket> {
  const at = deps.clock.now().toISOString();
  const ticket = await deps.db.transaction().execute(async (trx) => {
    const visible = await requireTicket(trx, principal, id);
    const change = await beginTicketChange(trx, deps, principal.organizationId, visible.id);
    const row = await requireTicket(trx, principal, visible.id);
    await updateTicket(trx, principal.organizationId, row.id, { deleted_at: at, updated_at: at });
    await change.finish(userActor(principal));
    return presentTicket(trx, row);
  });
  if (ticket.assignedAgentId && ticket.closedAt === null) {
    await assignWaitingTicketsServedBy(deps, principal.organizationId, ticket.assignedAgentId, 'ticket_closed');
  }
  return { ...ticket, deletedAt: at, updatedAt: at };
}

export async function listTeamTicketOptions(deps: Deps, principal: Principal, teamId: string, kind: 'status' | 'priority') {
  const team = await requireTeam(deps.db, principal.organizationId, teamId);
  return (await listTeamOptions(deps.db, deps, team, kind)).map(toTicketOption);
}

/**
 * Renames a status or sets whether it pauses SLA clocks; the team's admins and managers only.
 * Tickets in the status pause or resume at once.
 */
export async function updateTicketStatus(deps: Deps, principal: Principal, id: string, input: UpdateTicketStatus) {
  return inTransaction(deps.db, async (trx) => {
    const status = await findTicketStatus(trx, principal.organizationId, id);
    if (!status) {
      throw AppError.notFound('Ticket status not found!');
    }
    await requireManagedTeam(trx, principal, status.team_id);
    const changes = {
      ...(input.displayName !== undefined && { display_name: input.displayName.trim() }),
      ...(input.pausesSla !== undefined && { pauses_sla: input.pausesSla }),
    };
    if (Object.keys(changes).length > 0) {
      await updateTicketOption(trx, id, { ...changes, updated_at: deps.clock.now().toISOString() });
    }
    if (input.pausesSla !== undefined && input.pausesSla !== readBoolean(status.pauses_sla)) {
      await reconcileTicketsInStatus(trx, deps, {
        organizationId: principal.organizationId,
        statusId: id,
        actor: userActor(principal),
      });
    }
    return toTicketOption((await findTicketStatus(trx, principal.organizationId, id)) ?? status);
  });
}
