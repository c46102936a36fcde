import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { SlaMetric } from '../../shared/sla.js';
import {
  localDay,
  pendingOf,
  type ReportKey,
  schedulesOf,
  UTC_CLOSED,
  writePendingReports,
} from './report-aggregates.service.js';
import { changeSurveyResponse, findTicketReportKey, insertSurveyResponse } from './report-outcomes.repository.js';

/**
 * Keeps the SLA and satisfaction aggregates (`report.table.ts`) in the transaction of the fact,
 * keyed by the ticket's team and assignee at that moment and the team's local day of the fact.
 * Like every report row, they are written once the transaction holds the event log's lock (see
 * `report-aggregates.service.ts`): the SLA clock leaves them pending for the ticket change's
 * `writePendingReports`; a caller that records no event, or has recorded it, passes `write`.
 */

interface Deps {
  clock: Clock;
}

export interface SlaOutcome {
  policyId: string;
  metric: SlaMetric;
  /** 1 met in time, -1 a met taken back (a resolution reopened), 0 otherwise. */
  met: number;
  breached: number;
  /** When it happened: the day it is counted on. */
  at: Date;
}

async function keyOfTicket(trx: Transaction<DB>, organizationId: string, ticketId: string, at: Date): Promise<ReportKey | null> {
  const ticket = await findTicketReportKey(trx, organizationId, ticketId);
  if (!ticket) {
    return null;
  }
  const schedule = (await schedulesOf(trx, [ticket.team_id])).get(ticket.team_id) ?? UTC_CLOSED;
  return { teamId: ticket.team_id, agentId: ticket.assigned_agent_id, day: localDay(at, schedule.timezone) };
}

/** Targets met in time or breached (each counted once by the clock or the worker that marked it). */
export async function recordSlaOutcomesForReports(
  trx: Transaction<DB>,
  ticket: { organizationId: string; ticketId: string },
  outcomes: readonly SlaOutcome[],
  options: { write?: boolean } = {},
): Promise<void> {
  if (outcomes.length > 0) {
    const pending = pendingOf(trx, ticket.organizationId);
    for (const outcome of outcomes) {
      const key = await keyOfTicket(trx, ticket.organizationId, ticket.ticketId, outcome.at);
      if (key) {
        pending.addSla(key, outcome.policyId, outcome.metric, { met: outcome.met, breached: outcome.breached });
      }
    }
  }
  if (options.write) {
    await writePendingReports(trx);
  }
}

/** A survey's email queued. */
export async function recordSurveySentForReports(
  trx: Transaction<DB>,
  deps: Deps,
  survey: { organizationId: string; ticketId: string },
): Promise<void> {
  const key = await keyOfTicket(trx, survey.organizationId, survey.ticketId, deps.clock.now());
  if (key) {
    pendingOf(trx, survey.organizationId).addSatisfaction(key, { sent: 1 });
  }
  await writePendingReports(trx);
}

/**
 * A rating recorded: the survey's first counts a response and its rating; a later one that
 * changes the rating moves one count between good and bad in the first response's key.
 */
export async function recordRatingForReports(
  trx: Transaction<DB>,
  deps: Deps,
  survey: { id: string; organizationId: string; ticketId: string; rating: 'good' | 'bad' },
): Promise<void> {
  const key = await keyOfTicket(trx, survey.organizationId, survey.ticketId, deps.clock.now());
  if (!key) {
    return;
  }
  const pending = pendingOf(trx, survey.organizationId);
  const first = await insertSurveyResponse(trx, {
    survey_id: survey.id,
    organization_id: survey.organizationId,
    team_id: key.teamId,
    agent_id: key.agentId ?? '',
    day: key.day,
    rating: survey.rating,
  });
  if (first) {
    pending.addSatisfaction(key, { responses: 1, [survey.rating]: 1 });
  } else {
    const moved = await changeSurveyResponse(trx, survey.id, survey.rating);
    if (moved) {
      const original = { teamId: moved.team_id, agentId: moved.agent_id, day: moved.day };
      pending.addSatisfaction(original, survey.rating === 'good' ? { good: 1, bad: -1 } : { good: -1, bad: 1 });
    }
  }
  await writePendingReports(trx);
}
