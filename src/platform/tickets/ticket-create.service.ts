import type { Static } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, writeJson } from '../../db/dialect.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import type { Metrics } from '../../lib/metrics.js';
import type { Principal } from '../../lib/principal.js';
import { findOrCreateContactByEmail } from '../contacts/customer-contact.service.js';
import { requireMandatoryValues, validateCustomFieldValues } from '../custom-fields/custom-field.values.js';
import { notifyTicketAssigned } from '../notifications/ticket-notification.service.js';
import { recordRoutingDecision, routeTicket } from '../routing/routing.pipeline.js';
import { requireTeam } from '../teams/team.lookup.js';
import { type Actor, recordTicketCreated, userActor } from '../ticket-activities/ticket-activity.recorder.js';
import { addTicketTags, counterpartTags, resolveTicketTags, type TicketTagRow } from '../ticket-tags/ticket-tag.lookup.js';
import { presentTicket, type Ticket } from './ticket.presenter.js';
import { insertTicket, nextTicketNumber } from './ticket.repository.js';
import type { CreateTicketSchema } from './ticket.schemas.js';
import { checkAccount, requireTicket, resolveAgent } from './ticket.service.js';
import { writeTicketCustomFieldValues } from './ticket-custom-field-filters.js';
import {
  type ChosenOptions,
  loadTeamOptions,
  remapOptions,
  resolveTicketOption,
  type TeamOptions,
} from './ticket-option.service.js';

/**
 * Creating a ticket: `POST /v1/tickets`, and the email channel's tickets (`createTicketInTransaction`
 * in the transaction that stores the message). Changing one is `ticket.service.ts`.
 */

type CreateTicket = Static<typeof CreateTicketSchema>;

interface Deps extends TicketEmailDeps {
  db: Kysely<DB>;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  /** Counts the ticket in `tickets_created_total` (the app's deps and the email channel's hand them in). */
  metrics?: Pick<Metrics, 'ticketCreated'>;
}

export async function createTicket(deps: Deps, principal: Principal, input: CreateTicket): Promise<Ticket> {
  const creator: TicketCreator = {
    organizationId: principal.organizationId,
    userId: principal.userId,
    createdById: principal.userId,
    actor: userActor(principal),
  };
  const id = await deps.db.transaction().execute((trx) => createTicketInTransaction(trx, deps, creator, input));
  return presentTicket(deps.db, await requireTicket(deps.db, principal, id), deps.clock.now());
}

/** Who a new ticket comes from: an API caller, or a customer's email received for a mailbox. */
export interface TicketCreator {
  organizationId: string;
  /** The user who asked for it, never emailed about it; null for a ticket from an email. */
  userId: string | null;
  /** Recorded as `created_by_id`: the user, or for email the admin who set the mailbox up. */
  createdById: string;
  /**
   * Who the timeline and the event log name as its creator, and as the maker of the requestor's
   * contact if new: the user; for email the customer contact, made by the caller beforehand.
   */
  actor: Actor;
  /**
   * An email cannot fill in the team's mandatory custom fields: its tickets are made without them
   * (agents complete them; those mandatory on close are still asked for then).
   */
  skipMandatoryFields?: boolean;
}

/**
 * `POST /v1/tickets` in the caller's transaction: the team's options, routing rules and round
 * robin, the requestor's contact, the timeline and events. Answers the new ticket's id. The email
 * channel creates tickets so, in the transaction that stores the message.
 */
export async function createTicketInTransaction(
  trx: Transaction<DB>,
  deps: Deps,
  creator: TicketCreator,
  input: CreateTicket,
): Promise<string> {
  const { team, chosen, agentId, customFieldValues, tags, contact } = await checkNewTicket(trx, deps, creator, input);
  const now = deps.clock.now();
  const at = now.toISOString();
  const ticketId = deps.ids.ulid();
  const routed = await routeOnCreation(trx, creator.organizationId, team, input, chosen, agentId, tags, now);
  // Routing decides before the ticket exists, so it is numbered in the team it lands in.
  const home = routed?.team ?? team;
  if (home.id !== team.id && !creator.skipMandatoryFields) {
    // The ticket lands in another team: that team's mandatory fields apply too.
    await requireMandatoryValues(trx, creator.organizationId, 'ticket', customFieldValues, {
      teamId: home.id,
      on: 'creation',
    });
  }
  const options = home.id === team.id ? chosen : remapOptions(await loadTeamOptions(trx, deps, home), chosen);
  const assignee = agentId ?? routed?.agentId ?? null;
  const number = await nextTicketNumber(trx, home.id);
  await insertTicket(trx, {
    id: ticketId,
    organization_id: creator.organizationId,
    team_id: home.id,
    ticket_number: number,
    ticket_identifier: `${home.identifier}-${number}`,
    title: input.title.trim(),
    description: input.description ?? null,
    source: input.source ?? 'api',
    account_id: input.accountId ?? null,
    status_id: options.status.id,
    priority_id: options.priority.id,
    type_id: options.type?.id ?? null,
    is_private: input.isPrivate ?? false,
    assigned_agent_id: assignee,
    requestor_email: input.requestorEmail,
    customer_contact_id: contact.id,
    submitter_email: input.submitterEmail ?? null,
    metadata: writeJson(input.metadata),
    custom_field_values: JSON.stringify(customFieldValues),
    due_date: input.dueDate ? new Date(input.dueDate).toISOString() : null,
    created_by_id: creator.createdById,
    assigned_at: assignee ? at : null,
    awaiting_assignment_since: routed?.waiting ? at : null,
    closed_at: readBoolean(options.status.is_closed) ? at : null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  await writeTicketCustomFieldValues(trx, { id: ticketId, organization_id: creator.organizationId }, customFieldValues, {
    replace: false,
  });
  // Tags are the requested team's; a ticket routed elsewhere takes that team's tags of the same names.
  const homeTags = home.id === team.id ? tags : await counterpartTags(trx, creator.organizationId, home.id, tags);
  await addTicketTags(trx, { id: ticketId, organizationId: creator.organizationId }, homeTags, at);
  const decisionId = routed
    ? await recordRoutingDecision(trx, deps, {
        organizationId: creator.organizationId,
        ticketId,
        trigger: 'create',
        fromTeamId: team.id,
        explanation: routed.explanation,
        decidedById: creator.userId,
      })
    : null;
  await recordTicketCreated(trx, deps, {
    organizationId: creator.organizationId,
    ticketId,
    actor: creator.actor,
    requested: { team, ...chosen, agentNamed: agentId !== null, tags },
    routing: decisionId ? { decisionId, ruleName: routed?.explanation.matchedRule?.name ?? null } : null,
    tags: homeTags,
  });
  await notifyTicketAssigned(trx, deps, {
    organizationId: creator.organizationId,
    ticketId,
    actorUserId: creator.userId,
    byRouting: agentId === null,
    created: true,
  });
  // Counted as its transaction's work ends: a rare rollback after this point (the caller's) still counts.
  deps.metrics?.ticketCreated({ source: input.source ?? 'api', team: home.name });
  return ticketId;
}

/**
 * Everything a new ticket names, checked before anything is written: its team and options, its
 * agent, account, custom-field values and tags, and the requestor's contact (made if new).
 */
async function checkNewTicket(trx: Transaction<DB>, deps: Deps, creator: TicketCreator, input: CreateTicket) {
  const team = await requireTeam(trx, creator.organizationId, input.teamId);
  const chosen = resolveCreationOptions(await loadTeamOptions(trx, deps, team), input);
  const agentId = await resolveAgent(trx, creator.organizationId, input);
  await checkAccount(trx, creator.organizationId, input.accountId);
  const customFieldValues = await validateCustomFieldValues(
    trx,
    creator.organizationId,
    'ticket',
    input.customFieldValues ?? [],
    {
      onCreate: !creator.skipMandatoryFields,
      teamId: team.id,
    },
  );
  const tags = await resolveTicketTags(trx, creator.organizationId, team.id, input.tagIds ?? [], {
    location: 'body',
    field: 'tagIds',
  });
  const contact = await findOrCreateContactByEmail(trx, deps, creator.organizationId, input.requestorEmail, creator.actor);
  return { team, chosen, agentId, customFieldValues, tags, contact };
}

/**
 * Routing of a new ticket: the team's rules, then its agent step (an explicit agent wins). A
 * ticket created closed is filed as it is, and `performRouting: false` skips routing.
 */
async function routeOnCreation(
  trx: Transaction<DB>,
  organizationId: string,
  team: { id: string },
  input: CreateTicket,
  chosen: ChosenOptions,
  agentId: string | null,
  tags: readonly TicketTagRow[],
  now: Date,
) {
  if (input.performRouting === false || readBoolean(chosen.status.is_closed)) {
    return null;
  }
  return routeTicket(trx, {
    organizationId,
    startTeamId: team.id,
    facts: {
      title: input.title,
      description: input.description ?? null,
      source: input.source ?? 'api',
      requestorEmail: input.requestorEmail,
      accountId: input.accountId ?? null,
      customFieldValues: input.customFieldValues ?? [],
      tags,
      ...chosen,
    },
    at: now,
    explicitAgentId: agentId,
  });
}

function resolveCreationOptions(options: TeamOptions, input: CreateTicket): ChosenOptions {
  const status = resolveTicketOption(
    options.statuses,
    { id: input.statusId, name: input.statusName },
    { idField: 'statusId', nameField: 'statusName', required: true },
  );
  const priority = resolveTicketOption(
    options.priorities,
    { id: input.priorityId, name: input.priorityName },
    { idField: 'priorityId', nameField: 'priorityName', required: true },
  );
  const type = resolveTicketOption(
    options.types,
    { id: input.typeId },
    { idField: 'typeId', nameField: 'typeId', required: false },
  );
  if (!status || !priority) {
    throw new Error('the team has no statuses or priorities');
  }
  return { status, priority, type };
}
