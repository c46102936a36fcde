import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { beginTicketChange } from '../ticket-activities/ticket-activity.recorder.js';
import { requireTicketAccess } from '../tickets/ticket.service.js';
import { toSatisfactionSurvey } from './satisfaction.presenter.js';
import { findLatestSurvey, findOpenSurvey, findSurveyedTicket, insertSurvey } from './satisfaction.repository.js';
import type { SatisfactionSurvey } from './satisfaction.schemas.js';
import { hasDeliverableAddress, newSurveyLink, type SurveySendDeps, sendTakenSurvey } from './satisfaction-send.service.js';

/** A ticket's open survey, else its latest (its state and the answer), or null when it was never surveyed. */
export async function getTicketSatisfaction(
  db: Kysely<DB>,
  principal: Principal,
  ticketId: string,
): Promise<SatisfactionSurvey | null> {
  const ticket = await requireTicketAccess(db, principal, ticketId);
  // The open survey of the current close first: a close skipped later must not hide one asked for by hand.
  const survey = (await findOpenSurvey(db, ticket.id)) ?? (await findLatestSurvey(db, ticket.id));
  return survey ? toSatisfactionSurvey(survey) : null;
}

const ALREADY_ASKED = 'The requestor was already asked about this close of the ticket';

/**
 * Sends a survey now, by hand, whatever the team's settings (on, sampling, cooldown), under the
 * ticket's row lock: 409 when the requestor has no address or the ticket's open survey (pending,
 * sent or rated, for this close) exists; the partial unique index refuses a second one too.
 */
export async function requestSurvey(deps: SurveySendDeps, principal: Principal, ticketId: string): Promise<SatisfactionSurvey> {
  const visible = await requireTicketAccess(deps.db, principal, ticketId);
  return inTransaction(deps.db, async (trx) => {
    await beginTicketChange(trx, deps, principal.organizationId, visible.id);
    const ticket = await findSurveyedTicket(trx, principal.organizationId, visible.id);
    if (!ticket) {
      throw AppError.notFound('Ticket not found!');
    }
    if (!hasDeliverableAddress(ticket.requestor_email)) {
      throw AppError.conflict('The ticket has no requestor email to send a survey to');
    }
    if (await findOpenSurvey(trx, ticket.id)) {
      throw AppError.conflict(ALREADY_ASKED);
    }
    const now = deps.clock.now();
    const link = newSurveyLink(now);
    const id = deps.ids.ulid();
    const inserted = await insertSurvey(trx, {
      id,
      organization_id: ticket.organization_id,
      ticket_id: ticket.id,
      team_id: ticket.team_id,
      contact_id: ticket.customer_contact_id,
      requestor_email: ticket.requestor_email,
      status: 'sent',
      skip_reason: null,
      manual: true,
      send_at: link.sentAt,
      sent_at: link.sentAt,
      token_hash: link.tokenHash,
      expires_at: link.expiresAt,
      rating: null,
      comment: null,
      rated_at: null,
      reopened_at: null,
      created_at: now.toISOString(),
    });
    if (!inserted) {
      throw AppError.conflict(ALREADY_ASKED);
    }
    await sendTakenSurvey(trx, deps, { id, token: link.token }, ticket, null);
    const survey = await findOpenSurvey(trx, ticket.id);
    if (!survey) {
      throw new Error(`survey ${id} vanished inside its own transaction`);
    }
    return toSatisfactionSurvey(survey);
  });
}
