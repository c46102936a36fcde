import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { tagsOfTicket } from '../ticket-tags/ticket-tag.lookup.js';
import { toSatisfactionSettings } from './satisfaction.presenter.js';
import {
  findClosedStatuses,
  findOpenSurvey,
  findSettings,
  findSurveyedTicket,
  insertSurvey,
  markSurveysReopened,
  type SurveyedTicketRow,
} from './satisfaction.repository.js';
import type { SatisfactionSettings } from './satisfaction.schemas.js';
import type { SurveySkipReason } from './satisfaction.table.js';

/**
 * Where a ticket's close becomes a survey: the timeline recorder calls this for every status
 * change, in the change's transaction and under the ticket's row lock. A close (an open status to
 * a closed one) with the team's surveys on queues one survey, due after the team's delay, or
 * records it skipped (sampled out, or a skip condition); a reopen (closed to open) withdraws the
 * open survey: an unsent one is never sent and a sent one's links stop working.
 */

interface Deps {
  clock: Clock;
  ids: IdFactory;
}

const MINUTE_MS = 60_000;

/**
 * Whether this close is in the sample: decided once, when the ticket closes, from the survey's id
 * (random bits of a ULID, hashed) so the decision is reproducible from the row and needs no state.
 */
export function inSample(surveyId: string, share: number): boolean {
  if (share >= 1) {
    return true;
  }
  const draw = createHash('sha256').update(surveyId).digest().readUInt32BE(0) / 2 ** 32;
  return draw < share;
}

async function skipReasonOf(
  trx: Transaction<DB>,
  ticket: SurveyedTicketRow,
  settings: SatisfactionSettings,
  surveyId: string,
): Promise<SurveySkipReason | null> {
  if (settings.skipWhen.priorityIds.includes(ticket.priority_id)) {
    return 'skip_condition';
  }
  if (settings.skipWhen.tagIds.length > 0) {
    const tags = await tagsOfTicket(trx, ticket.id);
    if (tags.some((tag) => settings.skipWhen.tagIds.includes(tag.id))) {
      return 'skip_condition';
    }
  }
  return inSample(surveyId, settings.samplingShare) ? null : 'sampled_out';
}

async function queueSurveyForClose(trx: Transaction<DB>, deps: Deps, organizationId: string, ticketId: string): Promise<void> {
  const ticket = await findSurveyedTicket(trx, organizationId, ticketId);
  if (!ticket) {
    return;
  }
  const row = await findSettings(trx, organizationId, ticket.team_id);
  const settings = row ? toSatisfactionSettings(row) : undefined;
  // A survey asked for by hand before this close stands for it (read under the ticket's row lock).
  if (!settings?.enabled || (await findOpenSurvey(trx, ticket.id))) {
    return;
  }
  const now = deps.clock.now();
  const id = deps.ids.ulid();
  const skipReason = await skipReasonOf(trx, ticket, settings, id);
  // The partial unique index refuses a second open survey of the ticket, should one slip past the read.
  await insertSurvey(trx, {
    id,
    organization_id: organizationId,
    ticket_id: ticket.id,
    team_id: ticket.team_id,
    contact_id: ticket.customer_contact_id,
    requestor_email: ticket.requestor_email,
    status: skipReason ? 'skipped' : 'pending',
    skip_reason: skipReason,
    manual: false,
    send_at: new Date(now.getTime() + settings.delayMinutes * MINUTE_MS).toISOString(),
    sent_at: null,
    token_hash: null,
    expires_at: null,
    rating: null,
    comment: null,
    rated_at: null,
    reopened_at: null,
    created_at: now.toISOString(),
  });
}

/** A status change of a ticket, from the recorder: a close queues a survey, a reopen withdraws it. */
export async function surveyOnStatusChange(
  trx: Transaction<DB>,
  deps: Deps,
  organizationId: string,
  ticketId: string,
  change: { fromStatusId: string; toStatusId: string },
): Promise<void> {
  const closed = await findClosedStatuses(trx, [change.fromStatusId, change.toStatusId]);
  const wasClosed = closed.has(change.fromStatusId);
  const isClosed = closed.has(change.toStatusId);
  if (!wasClosed && isClosed) {
    await queueSurveyForClose(trx, deps, organizationId, ticketId);
  } else if (wasClosed && !isClosed) {
    await markSurveysReopened(trx, ticketId, deps.clock.now().toISOString());
  }
}
