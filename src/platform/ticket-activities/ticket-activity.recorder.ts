import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson, writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import type { ActorType } from '../../shared/event-types.js';
import { customFieldNames } from '../custom-fields/custom-field.values.js';
import { recordTicketChangeEvents, recordTicketCreatedEvents } from '../events/ticket-events.js';
import {
  type ReportedTicketState,
  recordChangeForReports,
  recordCreationForReports,
} from '../reports/report-aggregates.service.js';
import { surveyOnStatusChange } from '../satisfaction/satisfaction-close.service.js';
import { reconcileTicketSla } from '../ticket-sla/ticket-sla.service.js';
import { byTagName, type TicketTagView, tagsOfTicket, tagsOfTickets } from '../ticket-tags/ticket-tag.lookup.js';
import { type ActivityChange, createdValue, diffStates, stateOf, type TicketState } from './ticket-activity.changes.js';
import {
  findTicketSnapshot,
  insertActivities,
  lastActivitySeq,
  lastActivitySeqs,
  lockTicketForChange,
  lockTicketsWithTag,
} from './ticket-activity.repository.js';

/**
 * Writes a ticket's timeline, in the transaction of each change. Every path that changes a ticket
 * goes through here: `beginTicketChange` locks the row and reads the values before, the change is
 * made, and `finish` reads them again and writes an entry per changed field. Entries are only
 * ever inserted; nothing updates or deletes them. The same points write the event log's ticket
 * events (`events/ticket-events.ts`).
 */

interface Deps {
  clock: Clock;
  ids: IdFactory;
}

/** Who made a change; `name` is kept for routing and the system (people show their current name). */
export interface Actor {
  type: ActorType;
  id: string | null;
  name?: string | null;
}

export const userActor = (principal: Principal): Actor => ({ type: 'user', id: principal.userId });

/** Changes routing made: the id is the routing decision (`GET /v1/tickets/{id}/routing-history`), the name its rule's. */
export const routingActor = (decisionId: string | null, ruleName?: string | null): Actor => ({
  type: 'routing',
  id: decisionId,
  name: ruleName ?? 'Routing',
});

export interface TicketChange {
  /** The ticket's values when the lock was taken. */
  before: TicketState;
  /** Reads the values again and records what changed since `before`; answers the new values. */
  finish(actor: Actor): Promise<TicketState>;
}

async function readState(
  trx: Transaction<DB>,
  organizationId: string,
  ticketId: string,
  knownTags?: readonly TicketTagView[],
): Promise<TicketState | undefined> {
  const row = await findTicketSnapshot(trx, organizationId, ticketId);
  return row ? stateOf(row, knownTags ? [...knownTags].sort(byTagName) : await tagsOfTicket(trx, ticketId)) : undefined;
}

/** What the reports key on (`reports/report-aggregates.service.ts`). */
const reportedState = (state: TicketState): ReportedTicketState => ({
  teamId: state.team.id,
  statusId: state.status.id,
  assigneeId: state.assignee?.id ?? null,
  deleted: state.deletedAt !== null,
});

/**
 * Locks the live ticket for a change and reads its values (a ticket deleted meanwhile is the
 * 404 every ticket route answers).
 */
export async function beginTicketChange(
  trx: Transaction<DB>,
  deps: Deps,
  organizationId: string,
  ticketId: string,
): Promise<TicketChange> {
  const locked = await lockTicketForChange(trx, organizationId, ticketId);
  const before = locked ? await readState(trx, organizationId, ticketId) : undefined;
  if (!before || before.deletedAt !== null) {
    throw AppError.notFound('Ticket not found!');
  }
  return {
    before,
    finish: async (actor) => {
      const row = await findTicketSnapshot(trx, organizationId, ticketId);
      if (!row) {
        throw new Error(`ticket ${ticketId} vanished inside its own change`);
      }
      const after = stateOf(row, await tagsOfTicket(trx, ticketId));
      const changes = await namedChanges(trx, organizationId, before, after);
      await appendEntries(
        trx,
        deps,
        { organizationId, ticketId },
        changes.map((change) => ({ actor, change })),
        Number(row.last_activity_seq ?? 0) + 1,
      );
      await followChanges(trx, deps, { organizationId, ticketId, actor }, changes);
      // Last: the event log's lock is taken after every other (see `event.recorder.ts`)…
      await recordTicketChangeEvents(trx, deps, organizationId, ticketId, actor, changes);
      // …but for the reports' rows, taken only under it (see `report-aggregates.service.ts`).
      if (changes.length > 0) {
        await recordChangeForReports(trx, deps, { organizationId, ticketId }, reportedState(before), reportedState(after));
      }
      return after;
    },
  };
}

/** The entries from `before` to `after`, custom fields named by their current names. */
async function namedChanges(trx: Transaction<DB>, organizationId: string, before: TicketState, after: TicketState) {
  const changes = diffStates(before, after);
  const fieldIds = changes
    .filter((change) => change.field === 'customField')
    .map((change) => (change.newValue as { fieldId: string }).fieldId);
  if (fieldIds.length === 0) {
    return changes;
  }
  const names = await customFieldNames(trx, organizationId, fieldIds);
  const named = (value: unknown) => {
    const entry = value as { fieldId: string; value: unknown };
    return { fieldId: entry.fieldId, name: names.get(entry.fieldId) ?? null, value: entry.value };
  };
  return changes.map((change) =>
    change.field === 'customField' ? { ...change, oldValue: named(change.oldValue), newValue: named(change.newValue) } : change,
  );
}

/**
 * Appends entries to the ticket's timeline. The caller holds the ticket's row lock (or has just
 * inserted the ticket), so the numbers taken here follow the last committed entry without a gap.
 */
export async function recordActivities(
  trx: Transaction<DB>,
  deps: Deps,
  organizationId: string,
  ticketId: string,
  actor: Actor,
  changes: readonly ActivityChange[],
): Promise<void> {
  await appendEntries(
    trx,
    deps,
    { organizationId, ticketId },
    changes.map((change) => ({ actor, change })),
  );
  await followChanges(trx, deps, { organizationId, ticketId, actor }, changes);
  await recordTicketChangeEvents(trx, deps, organizationId, ticketId, actor, changes);
}

/**
 * What follows a ticket's changes in their transaction, under its row lock: the SLA clock
 * reconciled with the ticket's new values, and a satisfaction survey queued on a close or withdrawn
 * on a reopen.
 */
async function followChanges(
  trx: Transaction<DB>,
  deps: Deps,
  change: { organizationId: string; ticketId: string; actor: Actor },
  changes: readonly ActivityChange[],
): Promise<void> {
  if (changes.length === 0) {
    return;
  }
  await surveyOnStatusChanges(trx, deps, change.organizationId, change.ticketId, changes);
  await reconcileTicketSla(trx, deps, change);
}

/** A close queues a satisfaction survey and a reopen withdraws it, in the change's transaction. */
async function surveyOnStatusChanges(
  trx: Transaction<DB>,
  deps: Deps,
  organizationId: string,
  ticketId: string,
  changes: readonly ActivityChange[],
): Promise<void> {
  const status = changes.find((change) => change.field === 'status');
  const from = (status?.oldValue as { id?: string } | null)?.id;
  const to = (status?.newValue as { id?: string } | null)?.id;
  if (from && to) {
    await surveyOnStatusChange(trx, deps, organizationId, ticketId, { fromStatusId: from, toStatusId: to });
  }
}

/**
 * One insert for all the entries; `firstSeq` when the caller knows it (a ticket just inserted has
 * none yet). A user's or contact's name is not stored: the timeline shows their current name.
 */
async function appendEntries(
  trx: Transaction<DB>,
  deps: Deps,
  ticket: { organizationId: string; ticketId: string },
  entries: readonly { actor: Actor; change: ActivityChange }[],
  firstSeq?: number,
): Promise<void> {
  if (entries.length === 0) {
    return;
  }
  const first = firstSeq ?? (await lastActivitySeq(trx, ticket.ticketId)) + 1;
  const at = deps.clock.now().toISOString();
  await insertActivities(
    trx,
    entries.map(({ actor, change }, index) => ({
      id: deps.ids.ulid(),
      organization_id: ticket.organizationId,
      ticket_id: ticket.ticketId,
      seq: first + index,
      field: change.field,
      old_value: writeJson(change.oldValue),
      new_value: writeJson(change.newValue),
      actor_type: actor.type,
      actor_id: actor.id,
      actor_name: actor.name ?? null,
      created_at: at,
    })),
  );
}

export interface CreationRecord {
  organizationId: string;
  ticketId: string;
  actor: Actor;
  /** What the request asked for, before routing: the team it named, the options and tags chosen there, the agent it named. */
  requested: {
    team: { id: string; name: string; identifier: string };
    status: { id: string; display_name: string };
    priority: { id: string; display_name: string };
    type: { id: string; display_name: string } | null;
    agentNamed: boolean;
    tags: readonly { id: string; name: string }[];
  };
  /** The routing decision taken on creation, if any: what it changed is recorded as routing's. */
  routing: { decisionId: string; ruleName: string | null } | null;
  /** The tags the ticket was given (in its final team), so they need not be read back. */
  tags: readonly TicketTagView[];
}

/**
 * A new ticket's first entries: `created` by its creator with the ticket as asked for, then, when
 * routing moved or assigned it, one entry per field routing changed.
 */
export async function recordTicketCreated(trx: Transaction<DB>, deps: Deps, input: CreationRecord): Promise<void> {
  const final = await readState(trx, input.organizationId, input.ticketId, input.tags);
  if (!final) {
    throw new Error(`ticket ${input.ticketId} was not inserted`);
  }
  const { requested } = input;
  const sameTeam = requested.team.id === final.team.id;
  const asked: TicketState = {
    ...final,
    team: {
      id: requested.team.id,
      name: requested.team.name,
      identifier: requested.team.identifier,
      ticketIdentifier: sameTeam ? final.team.ticketIdentifier : null,
    },
    status: { id: requested.status.id, name: requested.status.display_name },
    priority: { id: requested.priority.id, name: requested.priority.display_name },
    type: requested.type ? { id: requested.type.id, name: requested.type.display_name } : null,
    assignee: requested.agentNamed ? final.assignee : null,
    tags: [...requested.tags].sort(byTagName).map((tag) => ({ id: tag.id, name: tag.name })),
  };
  const routed = input.routing ? await namedChanges(trx, input.organizationId, asked, final) : [];
  const router = routingActor(input.routing?.decisionId ?? null, input.routing?.ruleName);
  await appendEntries(
    trx,
    deps,
    input,
    [
      { actor: input.actor, change: { field: 'created', oldValue: null, newValue: createdValue(asked) } },
      ...routed.map((change) => ({ actor: router, change })),
    ],
    1,
  );
  await reconcileTicketSla(trx, deps, {
    organizationId: input.organizationId,
    ticketId: input.ticketId,
    actor: input.actor,
    created: true,
  });
  await recordTicketCreatedEvents(
    trx,
    deps,
    input.organizationId,
    input.ticketId,
    input.actor,
    requested.agentNamed ? input.actor : router,
  );
  // After the event log's lock, as every report row (see `report-aggregates.service.ts`).
  await recordCreationForReports(trx, deps, input.organizationId, reportedState(final));
}

/** Timeline entries per insert when one change touches many tickets. */
const ENTRIES_PER_INSERT = 500;

/**
 * Records that a team tag leaves every ticket that has it (the tag is deleted, or becomes a skills
 * tag): the tickets are locked in id order and each gets a `tags` entry, old set and new. The
 * caller then deletes the tag's rows. A tag added to a ticket by a change that commits while this
 * runs leaves it with the foreign key's cascade, without an entry. Answers the entries written,
 * for the tickets' events.
 */
export async function recordTagLeavingTickets(
  trx: Transaction<DB>,
  deps: Deps,
  organizationId: string,
  tagId: string,
  actor: Actor,
): Promise<{ ticketId: string; change: ActivityChange }[]> {
  const ticketIds = await lockTicketsWithTag(trx, tagId);
  if (ticketIds.length === 0) {
    return [];
  }
  const tags = await tagsOfTickets(trx, ticketIds);
  const seqs = await lastActivitySeqs(trx, ticketIds);
  const at = deps.clock.now().toISOString();
  const named = (list: readonly TicketTagView[]) => list.map((tag) => ({ id: tag.id, name: tag.name }));
  // A ticket whose tags no longer hold it (a concurrent deletion of the same tag committed first) has no change.
  const losing = ticketIds.filter((ticketId) => tags.get(ticketId)?.some((tag) => tag.id === tagId));
  const rows = losing.map((ticketId) => {
    const before = tags.get(ticketId) ?? [];
    return {
      id: deps.ids.ulid(),
      organization_id: organizationId,
      ticket_id: ticketId,
      seq: (seqs.get(ticketId) ?? 0) + 1,
      field: 'tags' as const,
      old_value: writeJson(named(before)),
      new_value: writeJson(named(before.filter((tag) => tag.id !== tagId))),
      actor_type: actor.type,
      actor_id: actor.id,
      actor_name: actor.name ?? null,
      created_at: at,
    };
  });
  for (let start = 0; start < rows.length; start += ENTRIES_PER_INSERT) {
    await insertActivities(trx, rows.slice(start, start + ENTRIES_PER_INSERT));
  }
  // The caller writes the tickets' events once the tag has left them (`recordTicketsTagLeftEvents`).
  return rows.map((row) => ({
    ticketId: row.ticket_id,
    change: { field: row.field, oldValue: readJson(row.old_value), newValue: readJson(row.new_value) },
  }));
}
