import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson, writeJson } from '../../db/dialect.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { assignWaitingTicketsServedBy } from '../routing/routing.pipeline.js';
import {
  beginTicketChange,
  recordActivities,
  type TicketChange,
  userActor,
} from '../ticket-activities/ticket-activity.recorder.js';
import { addQuietInternalNote } from '../tickets/comment-notes.service.js';
import { presentTicketsById } from '../tickets/ticket.lookup.js';
import { type TicketRow, updateTicket } from '../tickets/ticket.repository.js';
import { requireTicket } from '../tickets/ticket.service.js';
import { listTeamOptions } from '../tickets/ticket-option.service.js';
import { listMergeEntries, moveComments } from './ticket-merge.repository.js';

interface Deps extends TicketEmailDeps {
  db: Kysely<DB>;
}

/** Where a merged ticket went: written to its metadata for clients to follow, and to its timeline. */
export interface MergedInto {
  ticketId: string;
  ticketIdentifier: string;
}

/** The ticket this one was merged into, from its timeline (null when it was not). */
export async function mergedInto(trx: Kysely<DB> | Transaction<DB>, ticketId: string): Promise<MergedInto | null> {
  for (const row of await listMergeEntries(trx, ticketId)) {
    const into = readJson<{ into?: { id: string; ticketIdentifier: string } }>(row.new_value)?.into;
    if (into) {
      return { ticketId: into.id, ticketIdentifier: into.ticketIdentifier };
    }
  }
  return null;
}

/**
 * Merges a ticket into another of the organization, in one transaction with both tickets locked
 * (in id order, so two merges of the same pair cannot deadlock): every comment moves to the target;
 * the source is closed (its team's closed status; mandatory-on-close fields are not asked for, the
 * ticket lives on in the target) with `metadata.mergedInto` linking the target; an internal note on
 * each says what happened; both timelines record a `merged` entry. Merging into itself is a 400; a
 * ticket already merged, or a target merged or closed, a 409; an unknown or foreign ticket a 404.
 */
export async function mergeTicket(deps: Deps, principal: Principal, id: string, targetRef: string) {
  const { organizationId } = principal;
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const visibleSource = await requireTicket(trx, principal, id);
    const visibleTarget = await requireTicket(trx, principal, targetRef).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'NOT_FOUND' ? AppError.notFound('Target ticket not found!') : error;
    });
    if (visibleSource.id === visibleTarget.id) {
      throw AppError.invalid('targetTicketId names the ticket itself: a ticket cannot be merged into itself', {
        location: 'body',
        path: ['targetTicketId'],
        rule: 'self',
      });
    }
    const changes = new Map<string, TicketChange>();
    for (const ticketId of [visibleSource.id, visibleTarget.id].sort()) {
      changes.set(ticketId, await beginTicketChange(trx, deps, organizationId, ticketId));
    }
    const source = await requireTicket(trx, principal, visibleSource.id);
    const target = await requireTicket(trx, principal, visibleTarget.id);
    await checkMergeable(trx, source, target);
    const at = deps.clock.now().toISOString();
    const moved = await moveComments(trx, source.id, target.id);
    const link: MergedInto = { ticketId: target.id, ticketIdentifier: target.ticket_identifier };
    await closeAsMerged(trx, deps, source, link, at);
    await addNote(trx, deps, principal, source.id, `Merged into ${target.ticket_identifier}: its comments are there now.`, at);
    const plural = moved === 1 ? 'comment' : 'comments';
    const note = `${source.ticket_identifier} was merged into this ticket (${moved} ${plural} moved here).`;
    await addNote(trx, deps, principal, target.id, note, at);
    const actor = userActor(principal);
    await changes.get(source.id)?.finish(actor);
    await changes.get(target.id)?.finish(actor);
    await recordActivities(trx, deps, organizationId, source.id, actor, [
      { field: 'merged', oldValue: null, newValue: { into: { id: target.id, ticketIdentifier: target.ticket_identifier } } },
    ]);
    await recordActivities(trx, deps, organizationId, target.id, actor, [
      {
        field: 'merged',
        oldValue: null,
        newValue: { from: { id: source.id, ticketIdentifier: source.ticket_identifier }, movedComments: moved },
      },
    ]);
    const freed = source.closed_at === null ? source.assigned_agent_id : null;
    return { sourceId: source.id, targetId: target.id, moved, freed };
  });
  if (outcome.freed) {
    await assignWaitingTicketsServedBy(deps, organizationId, outcome.freed, 'ticket_closed');
  }
  const [source, target] = await presentTicketsById(deps.db, organizationId, [outcome.sourceId, outcome.targetId]);
  if (!source || !target) {
    throw AppError.notFound('Ticket not found!');
  }
  return { source, target, movedComments: outcome.moved };
}

async function checkMergeable(trx: Transaction<DB>, source: TicketRow, target: TicketRow): Promise<void> {
  const sourceLink = await mergedInto(trx, source.id);
  if (sourceLink) {
    throw AppError.conflict(`Ticket was already merged into ${sourceLink.ticketIdentifier}!`);
  }
  const targetLink = await mergedInto(trx, target.id);
  if (targetLink) {
    throw AppError.conflict(`The target ticket was merged into ${targetLink.ticketIdentifier}: merge into that one!`);
  }
  if (readBoolean(target.status_is_closed)) {
    throw AppError.conflict('The target ticket is closed: reopen it before merging into it!');
  }
}

async function closeAsMerged(trx: Transaction<DB>, deps: Deps, source: TicketRow, link: MergedInto, at: string) {
  const statuses = await listTeamOptions(trx, deps, { id: source.team_id, organization_id: source.organization_id }, 'status');
  const closed = readBoolean(source.status_is_closed)
    ? statuses.find((status) => status.id === source.status_id)
    : statuses.find((status) => readBoolean(status.is_closed));
  if (!closed) {
    throw AppError.conflict("The ticket's team has no closed status to give a merged ticket!");
  }
  const metadata = readJson<Record<string, unknown>>(source.metadata) ?? {};
  await updateTicket(trx, source.organization_id, source.id, {
    status_id: closed.id,
    closed_at: source.closed_at ?? at,
    metadata: writeJson({ ...metadata, mergedInto: link }),
    updated_at: at,
  });
}

/** An internal note by the person merging, on one of the two tickets. */
async function addNote(trx: Transaction<DB>, deps: Deps, principal: Principal, ticketId: string, text: string, at: string) {
  await addQuietInternalNote(trx, deps, {
    organizationId: principal.organizationId,
    ticketId,
    authorId: principal.userId,
    text,
    at,
  });
}
