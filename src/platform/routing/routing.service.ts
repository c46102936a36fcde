import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { notifyTicketAssigned } from '../notifications/ticket-notification.service.js';
import { requireTeam } from '../teams/team.lookup.js';
import { beginTicketChange, routingActor } from '../ticket-activities/ticket-activity.recorder.js';
import { resolveTicketTags, tagsOfTicket } from '../ticket-tags/ticket-tag.lookup.js';
import { presentTicket } from '../tickets/ticket.presenter.js';
import type { TicketRow } from '../tickets/ticket.repository.js';
import { currentOptions, moveTicketToTeam, requireTicket } from '../tickets/ticket.service.js';
import { listTeamOptions, resolveTicketOption } from '../tickets/ticket-option.service.js';
import { findTicketOfOrganization, writeTicketAssignment } from '../tickets/ticket-rows.service.js';
import { recordRoutingDecision, routeTicket, routingTicket, type TicketFacts, teamLookup } from './routing.pipeline.js';
import { toRoutingDecision } from './routing.presenter.js';
import { findRoutingDecision, listRoutingDecisions, lockTicketRow } from './routing.repository.js';
import { traceRules } from './routing.rule-trace.js';
import type { ListRoutingHistoryQuery, SimulateRouting } from './routing.schemas.js';

interface Deps extends TicketEmailDeps {
  db: Kysely<DB>;
}

/** The routing decision `decisionId` as the API shows it, or undefined (read in the caller's transaction). */
export async function findDecision(db: Kysely<DB> | Transaction<DB>, decisionId: string) {
  const row = await findRoutingDecision(db, decisionId);
  return row ? toRoutingDecision(row) : undefined;
}

function factsOf(ticket: TicketRow, options: Awaited<ReturnType<typeof currentOptions>>, tags: TicketFacts['tags']): TicketFacts {
  return {
    title: ticket.title,
    description: ticket.description,
    source: ticket.source,
    requestorEmail: ticket.requestor_email,
    accountId: ticket.account_id,
    customFieldValues: readJson<{ fieldId: string; value: unknown }[]>(ticket.custom_field_values) ?? [],
    tags,
    ...options,
  };
}

/**
 * Routes an existing ticket again, as on creation: its current team's rules choose the team (a
 * move renumbers it in the new team), then that team's configuration chooses the agent. The agent
 * it had is released first, so they compete like anyone else. Closed tickets are not routed.
 */
export async function rerouteTicket(deps: Deps, principal: Principal, id: string) {
  const { organizationId } = principal;
  const { ticketId, decisionId } = await deps.db
    .transaction()
    .execute((trx) => rerouteTicketInTransaction(trx, deps, principal, id));
  // Read without the visibility check: a move to a private team must not turn the answer into a 404.
  const [ticket, decision] = await Promise.all([
    findTicketOfOrganization(deps.db, organizationId, ticketId),
    findRoutingDecision(deps.db, decisionId),
  ]);
  if (!ticket || !decision) {
    throw AppError.notFound('Ticket not found!');
  }
  return { ticket: await presentTicket(deps.db, ticket), decision: toRoutingDecision(decision) };
}

/**
 * `rerouteTicket`'s change in the caller's transaction, so that a caller can write more with it
 * (an AI agent's handoff adds its note). Answers the ticket's id and the routing decision's.
 * `byAgent`: an AI agent asked for it with the principal's permissions, so the principal did not
 * make the change and is told of it like anyone else if routing picks them.
 */
export async function rerouteTicketInTransaction(
  trx: Transaction<DB>,
  deps: Deps,
  principal: Principal,
  id: string,
  options: { byAgent?: boolean } = {},
): Promise<{ ticketId: string; decisionId: string }> {
  const { organizationId } = principal;
  const visible = await requireTicket(trx, principal, id);
  await lockTicketRow(trx, organizationId, visible.id);
  const change = await beginTicketChange(trx, deps, organizationId, visible.id);
  const ticket = await requireTicket(trx, principal, visible.id);
  if (readBoolean(ticket.status_is_closed)) {
    throw AppError.conflict('A closed ticket is not routed!');
  }
  const now = deps.clock.now();
  const at = now.toISOString();
  const facts = factsOf(ticket, await currentOptions(trx, deps, ticket), await tagsOfTicket(trx, ticket.id));
  if (ticket.assigned_agent_id) {
    await writeTicketAssignment(trx, organizationId, ticket.id, { assigned_agent_id: null });
  }
  const routed = await routeTicket(trx, { organizationId, startTeamId: ticket.team_id, facts, at: now });
  const moved = routed.team.id !== ticket.team_id;
  const previousTicketIdentifier = moved ? await moveTicketToTeam(trx, deps, ticket, routed.team) : null;
  await writeTicketAssignment(trx, organizationId, ticket.id, {
    assigned_agent_id: routed.agentId,
    assigned_at: routed.agentId ? at : null,
    awaiting_assignment_since: routed.waiting ? (ticket.awaiting_assignment_since ?? at) : null,
    updated_at: at,
  });
  if (routed.agentId && routed.agentId !== ticket.assigned_agent_id) {
    await notifyTicketAssigned(trx, deps, {
      organizationId,
      ticketId: ticket.id,
      actorUserId: options.byAgent ? null : principal.userId,
      byRouting: true,
    });
  }
  const decision = await recordRoutingDecision(trx, deps, {
    organizationId,
    ticketId: ticket.id,
    trigger: 'reroute',
    fromTeamId: ticket.team_id,
    explanation: routed.explanation,
    previousTicketIdentifier,
    decidedById: principal.userId,
  });
  await change.finish(routingActor(decision, routed.explanation.matchedRule?.name));
  return { ticketId: ticket.id, decisionId: decision };
}

/**
 * What routing would do with a ticket like `body` entering `teamId` at `body.at` (default now):
 * the same pipeline as creation, without row locks, inside a transaction that is always rolled
 * back, so nothing it touches persists. The starting team's rules come with each condition's outcome.
 */
export async function simulateRouting(deps: Deps, principal: Principal, teamId: string, body: SimulateRouting) {
  const at = body.at ? new Date(body.at) : deps.clock.now();
  const trx = await deps.db.startTransaction().execute();
  try {
    const team = await requireTeam(trx, principal.organizationId, teamId);
    const statuses = await listTeamOptions(trx, deps, team, 'status');
    const priorities = await listTeamOptions(trx, deps, team, 'priority');
    const types = await listTeamOptions(trx, deps, team, 'type');
    const status = resolveTicketOption(
      statuses,
      { id: body.statusId, name: body.statusName },
      { idField: 'statusId', nameField: 'statusName', required: true },
    );
    const priority = resolveTicketOption(
      priorities,
      { id: body.priorityId, name: body.priorityName },
      { idField: 'priorityId', nameField: 'priorityName', required: true },
    );
    const type = resolveTicketOption(types, { id: body.typeId }, { idField: 'typeId', nameField: 'typeId', required: false });
    const facts: TicketFacts = {
      title: body.title ?? '',
      description: body.description ?? null,
      source: body.source ?? 'api',
      requestorEmail: body.requestorEmail ?? null,
      accountId: body.accountId ?? null,
      customFieldValues: body.customFieldValues ?? [],
      tags: await resolveTicketTags(trx, principal.organizationId, team.id, body.tagIds ?? [], {
        location: 'body',
        field: 'tagIds',
      }),
      status,
      priority,
      type,
    };
    const routed = await routeTicket(trx, {
      organizationId: principal.organizationId,
      startTeamId: team.id,
      facts,
      at,
      dryRun: true,
    });
    const rules = await teamLookup(trx, principal.organizationId).rules(team.id);
    return { ...routed.explanation, ruleEvaluations: traceRules(rules, routingTicket(facts)) };
  } finally {
    await trx.rollback().execute();
  }
}

/** The decisions made for a ticket, oldest first, each with its explanation. */
/** A page of the ticket's routing decisions, oldest first (then by id). */
export async function listRoutingHistory(db: Kysely<DB>, principal: Principal, id: string, query: ListRoutingHistoryQuery) {
  const ticket = await requireTicket(db, principal, id);
  const page = readListPage(query, query.limit ?? 100, 2);
  const rows = await listRoutingDecisions(db, principal.organizationId, ticket.id, page);
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return { items: items.map(toRoutingDecision), nextCursor };
}
