import type { Kysely, Transaction } from 'kysely';
import { type Config, publicBaseUrl } from '../../config.js';
import type { DB } from '../../db/database.js';
import { enqueueTicketEmail, type TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { escapeHtml } from '../../lib/plain-page.js';
import { generateSecretToken, hashSecretToken } from '../../lib/secret-token.js';
import { recordSurveySentForReports } from '../reports/report-outcomes.service.js';
import {
  claimSurvey,
  findCooldownDays,
  findSurveyedTicket,
  listDueSurveys,
  type SurveyedTicketRow,
  skipSurvey,
  takeContactCooldown,
} from './satisfaction.repository.js';
import type { SurveyRating } from './satisfaction.table.js';

/**
 * Sending a survey: the link token is made, its hash stored on the survey (now `sent`), the
 * requestor's cooldown taken, and the email queued in the ticket's customer thread, all in one
 * transaction, so a survey is sent once or not at all. Due surveys are taken by a conditional
 * update (pending to sent), so the worker of every process may run the same pass.
 */

export interface SurveySendDeps extends TicketEmailDeps {
  db: Kysely<DB>;
  config: Config;
}

/** How long a survey's links work. */
export const SURVEY_LINK_LIFETIME_MS = 28 * 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** The survey page's path; its links carry the ticket, the token and the answer offered first. */
export const SURVEY_PAGE_PATH = '/v1/satisfaction';
/** The `.invalid` requestor of an anonymous visitor who left no address (RFC 6761: never delivered). */
const NO_ADDRESS = /\.invalid$/i;

export function hasDeliverableAddress(email: string): boolean {
  return email.trim() !== '' && !NO_ADDRESS.test(email);
}

export function surveyLink(config: Config, ticketId: string, token: string, rating: SurveyRating): string {
  const query = new URLSearchParams({ ticket: ticketId, token, rating });
  return `${publicBaseUrl(config, 'platform')}${SURVEY_PAGE_PATH}?${query.toString()}`;
}

function surveyEmail(config: Config, ticket: SurveyedTicketRow, token: string) {
  const good = surveyLink(config, ticket.id, token, 'good');
  const bad = surveyLink(config, ticket.id, token, 'bad');
  const question = `How would you rate the support you received on "${ticket.title}" (${ticket.ticket_identifier})?`;
  return {
    text: `${question}\n\nGood: ${good}\nBad: ${bad}\n\nThe links work for 28 days; you can add a comment on the page they open.`,
    html:
      `<p>${escapeHtml(question)}</p>` +
      `<p><a href="${escapeHtml(good)}">Good, I'm satisfied</a> &nbsp; <a href="${escapeHtml(bad)}">Bad, I'm unsatisfied</a></p>` +
      '<p>The links work for 28 days; you can add a comment on the page they open.</p>',
  };
}

/** A new link: the token for the email, its hash and end for the survey's row. */
export function newSurveyLink(now: Date) {
  const token = generateSecretToken();
  return {
    token,
    sentAt: now.toISOString(),
    tokenHash: hashSecretToken(token),
    expiresAt: new Date(now.getTime() + SURVEY_LINK_LIFETIME_MS).toISOString(),
  };
}

/**
 * Sends a survey already taken for sending (its row just moved to `sent` with the link's hash, or
 * inserted so): the cooldown, then the email. `cooldownDays` null: asked for by hand, no cooldown
 * applies (the contact's last survey time still moves). Answers whether it went out.
 */
export async function sendTakenSurvey(
  trx: Transaction<DB>,
  deps: SurveySendDeps,
  survey: { id: string; token: string },
  ticket: SurveyedTicketRow,
  cooldownDays: number | null,
): Promise<boolean> {
  const now = deps.clock.now();
  // The last survey is never after now, so a cutoff of now refuses nothing (by hand, or 0 days).
  const cutoff = new Date(now.getTime() - (cooldownDays ?? 0) * DAY_MS).toISOString();
  const allowed = await takeContactCooldown(
    trx,
    ticket.organization_id,
    ticket.requestor_email.toLowerCase(),
    now.toISOString(),
    cutoff,
  );
  if (!allowed) {
    await skipSurvey(trx, survey.id, 'cooldown');
    return false;
  }
  await enqueueTicketEmail(trx, deps, {
    organizationId: ticket.organization_id,
    ticket: { id: ticket.id, identifier: ticket.ticket_identifier, teamId: ticket.team_id },
    audience: { kind: 'customer' },
    dedupeKey: `satisfaction-survey:${survey.id}`,
    to: ticket.requestor_email,
    subject: `How did we do? ${ticket.title}`,
    ...surveyEmail(deps.config, ticket, survey.token),
  });
  await recordSurveySentForReports(trx, deps, { organizationId: ticket.organization_id, ticketId: ticket.id });
  return true;
}

/** One due survey: sent, or skipped with its reason; one transaction, taken by a conditional update. */
async function settle(deps: SurveySendDeps, due: { id: string; organization_id: string; ticket_id: string }): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const link = newSurveyLink(deps.clock.now());
    if (!(await claimSurvey(trx, due.id, link))) {
      // Another process took it.
      return;
    }
    const ticket = await findSurveyedTicket(trx, due.organization_id, due.ticket_id);
    if (!ticket) {
      await skipSurvey(trx, due.id, 'gone');
    } else if (!hasDeliverableAddress(ticket.requestor_email)) {
      await skipSurvey(trx, due.id, 'no_address');
    } else {
      const cooldownDays = await findCooldownDays(trx, ticket.organization_id, ticket.team_id);
      await sendTakenSurvey(trx, deps, { id: due.id, token: link.token }, ticket, cooldownDays);
    }
  });
}

/** Sends the surveys due now, oldest first, at most `batchSize`; answers how many it decided. */
export async function sendDueSurveys(deps: SurveySendDeps, batchSize: number): Promise<number> {
  const due = await listDueSurveys(deps.db, deps.clock.now().toISOString(), batchSize);
  for (const survey of due) {
    await settle(deps, survey);
  }
  return due.length;
}
