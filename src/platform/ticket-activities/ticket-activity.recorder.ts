import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import type { Principal } from '../../http/api-key-auth.js';
import { AppError } from '../../http/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { findCustomFieldsByUids } from '../custom-fields/custom-field.repository.js';
import { tagsOfTicket } from '../ticket-tags/ticket-tag.lookup.js';
import { findUserById } from '../users/user.repository.js';
import { type ActivityChange, createdValue, diffStates, stateOf, type TicketState } from './ticket-activity.changes.js';
import { findTicketSnapshot, insertActivities, lastActivitySeq, lockTicketForChange } from './ticket-activity.repository.js';
import type { ActorType } from './ticket-activity.table.js';

/**
 * Writes a ticket's timeline, in the transaction of each change. Every path that changes a ticket
 * goes through here: `beginTicketChange` locks the row and reads the values before, the change is
 * made, and `finish` reads them again and writes an entry per changed field. Entries are only
 * ever inserted; nothing updates or deletes them.
 */

interface Deps {
  clock: Clock;
  ids: IdFactory;
}

/** Who made a change. A user's name is looked up when left out. */
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

async function readState(trx: Transaction<DB>, organizationId: string, ticketId: string): Promise<TicketState | undefined> {
  const row = await findTicketSnapshot(trx, organizationId, ticketId);
  return row ? stateOf(row, await tagsOfTicket(trx, ticketId)) : undefined;
}

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
      const after = await readState(trx, organizationId, ticketId);
      if (!after) {
        throw new Error(`ticket ${ticketId} vanished inside its own change`);
      }
      await recordActivities(trx, deps, organizationId, ticketId, actor, await namedChanges(trx, organizationId, before, after));
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
  const names = new Map((await findCustomFieldsByUids(trx, organizationId, fieldIds)).map((field) => [field.uid, field.name]));
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
  if (changes.length === 0) {
    return;
  }
  const name =
    actor.name !== undefined
      ? actor.name
      : actor.type === 'user' && actor.id
        ? ((await findUserById(trx, organizationId, actor.id))?.name ?? null)
        : null;
  const first = (await lastActivitySeq(trx, ticketId)) + 1;
  const at = deps.clock.now().toISOString();
  await insertActivities(
    trx,
    changes.map((change, index) => ({
      id: deps.ids.ulid(),
      organization_id: organizationId,
      ticket_id: ticketId,
      seq: first + index,
      field: change.field,
      old_value: writeJson(change.oldValue),
      new_value: writeJson(change.newValue),
      actor_type: actor.type,
      actor_id: actor.id,
      actor_name: name,
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
}

/**
 * A new ticket's first entries: `created` by its creator with the ticket as asked for, then, when
 * routing moved or assigned it, one entry per field routing changed.
 */
export async function recordTicketCreated(trx: Transaction<DB>, deps: Deps, input: CreationRecord): Promise<void> {
  const final = await readState(trx, input.organizationId, input.ticketId);
  if (!final) {
    throw new Error(`ticket ${input.ticketId} was not inserted`);
  }
  const { requested } = input;
  const sameTeam = requested.team.id === final.team.id;
  const asked: TicketState = {
    ...final,
    team: { ...requested.team, ticketIdentifier: sameTeam ? final.team.ticketIdentifier : null },
    status: { id: requested.status.id, name: requested.status.display_name },
    priority: { id: requested.priority.id, name: requested.priority.display_name },
    type: requested.type ? { id: requested.type.id, name: requested.type.display_name } : null,
    assignee: requested.agentNamed ? final.assignee : null,
    tags: requested.tags.map((tag) => ({ id: tag.id, name: tag.name })),
  };
  await recordActivities(trx, deps, input.organizationId, input.ticketId, input.actor, [
    { field: 'created', oldValue: null, newValue: createdValue(asked) },
  ]);
  if (input.routing) {
    await recordActivities(
      trx,
      deps,
      input.organizationId,
      input.ticketId,
      routingActor(input.routing.decisionId, input.routing.ruleName),
      await namedChanges(trx, input.organizationId, asked, final),
    );
  }
}
