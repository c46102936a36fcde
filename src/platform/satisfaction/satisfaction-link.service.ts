import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { hashSecretToken, looksLikeSecretToken } from '../../lib/secret-token.js';
import { recordEvents } from '../events/event.recorder.js';
import { recordRatingForReports } from '../reports/report-outcomes.service.js';
import type { SurveyPage } from './satisfaction.page.js';
import { toSatisfactionSurvey } from './satisfaction.presenter.js';
import { findSurveyByTokenHash, findSurveyedTicket, rateSurvey, type SatisfactionSurveyRow } from './satisfaction.repository.js';
import { MAX_COMMENT_LENGTH, type SurveyForm } from './satisfaction.schemas.js';
import type { SurveyRating } from './satisfaction.table.js';
import { SURVEY_PAGE_PATH } from './satisfaction-send.service.js';

/**
 * The survey's public page. Its links carry the ticket, a random token (the survey keeps its
 * SHA-256 only) and the answer the customer clicked. Opening a link (GET) changes nothing: mail
 * scanners and link previews fetch every link of a message on their own, and a GET that recorded
 * the rating would let them answer "Good" (the first link) for everyone. The page shows the
 * clicked answer chosen in a one-press form; the POST records it. The same link and page change the
 * answer or the comment until the ticket reopens or 28 days pass; then, and for a token that is
 * unknown or of another ticket, the page refuses and nothing is written.
 */

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
}

const RATINGS: readonly SurveyRating[] = ['good', 'bad'];

const ratingOf = (value: string | undefined): SurveyRating | null =>
  RATINGS.includes(value as SurveyRating) ? (value as SurveyRating) : null;

const INCOMPLETE: SurveyPage = {
  status: 400,
  title: 'This link is incomplete',
  paragraphs: ['Open the link from the email again, or copy all of it into the address bar.'],
};
const UNKNOWN: SurveyPage = {
  status: 404,
  title: 'This link is not valid',
  paragraphs: ['It is not a survey link we sent, or it was copied incompletely.'],
};
const REOPENED: SurveyPage = {
  status: 410,
  title: 'This survey is closed',
  paragraphs: ['The ticket was reopened since, so this survey no longer applies. You may be asked again once it is solved.'],
};
const GONE: SurveyPage = {
  status: 410,
  title: 'This survey is closed',
  paragraphs: ['The ticket it was about no longer exists.'],
};
const EXPIRED: SurveyPage = {
  status: 410,
  title: 'This link has expired',
  paragraphs: ['Survey links work for 28 days.'],
};

type Checked = { page: SurveyPage } | { survey: SatisfactionSurveyRow; tokenHash: string };

/** The survey a link names, or the refusal page: in the order a person can act on. */
async function checkLink(deps: Deps, ticketId: string | undefined, token: string | undefined): Promise<Checked> {
  if (!ticketId || !token || !looksLikeSecretToken(token)) {
    return { page: INCOMPLETE };
  }
  const tokenHash = hashSecretToken(token);
  const survey = await findSurveyByTokenHash(deps.db, tokenHash);
  // Another ticket's token is as unknown as a forged one: a link works for its own ticket only.
  if (!survey || survey.ticket_id !== ticketId) {
    return { page: UNKNOWN };
  }
  if (survey.reopened_at !== null) {
    return { page: REOPENED };
  }
  if (survey.expires_at === null || Date.parse(survey.expires_at) <= deps.clock.now().getTime()) {
    return { page: EXPIRED };
  }
  if (!(await findSurveyedTicket(deps.db, survey.organization_id, survey.ticket_id))) {
    return { page: GONE };
  }
  return { survey, tokenHash };
}

function formPage(survey: SatisfactionSurveyRow, token: string, offered: SurveyRating | null, status = 200): SurveyPage {
  return {
    status,
    title: 'How did we do?',
    paragraphs: survey.rating
      ? [`You rated this ticket ${survey.rating === 'good' ? 'Good' : 'Bad'}. You can change your rating or comment below.`]
      : ['Choose your rating and press the button to send it.'],
    form: {
      action: SURVEY_PAGE_PATH,
      ticket: survey.ticket_id,
      token,
      rating: offered ?? survey.rating,
      comment: survey.comment,
    },
  };
}

/** The page a link opens: the form with the clicked answer chosen. Changes nothing. */
export async function describeSurveyLink(
  deps: Deps,
  query: { ticket?: string; token?: string; rating?: string },
): Promise<SurveyPage> {
  const checked = await checkLink(deps, query.ticket, query.token);
  if ('page' in checked) {
    return checked.page;
  }
  return formPage(checked.survey, query.token ?? '', ratingOf(query.rating));
}

/** The form's post: records the rating and comment, and `satisfaction.rated`, in one transaction. */
export async function submitSurveyForm(deps: Deps, form: SurveyForm): Promise<SurveyPage> {
  const checked = await checkLink(deps, form.ticket, form.token);
  if ('page' in checked) {
    return checked.page;
  }
  const rating = ratingOf(form.rating);
  if (!rating) {
    return { ...formPage(checked.survey, form.token, null, 400), paragraphs: ['Choose Good or Bad, then send.'] };
  }
  const comment = (form.comment ?? '').trim().slice(0, MAX_COMMENT_LENGTH) || null;
  const at = deps.clock.now().toISOString();
  const rated = await inTransaction(deps.db, async (trx) => {
    const row = await rateSurvey(trx, checked.survey.id, checked.tokenHash, { rating, comment, at });
    if (!row) {
      return undefined;
    }
    const ticket = await findSurveyedTicket(trx, row.organization_id, row.ticket_id);
    await recordEvents(trx, deps, row.organization_id, [
      {
        type: 'satisfaction.rated',
        actor: { type: 'customer_contact', id: row.contact_id, name: row.requestor_email },
        data: toSatisfactionSurvey(row),
        ticket: ticket ? { id: ticket.id, teamId: ticket.team_id, isPrivate: readBoolean(ticket.is_private) } : null,
      },
    ]);
    // After the event log's lock, as every report row.
    await recordRatingForReports(trx, deps, {
      id: row.id,
      organizationId: row.organization_id,
      ticketId: row.ticket_id,
      rating: rating,
    });
    return row;
  });
  if (!rated) {
    // The ticket reopened (or the link ran out) between the check and the write.
    const again = await checkLink(deps, form.ticket, form.token);
    return 'page' in again ? again.page : EXPIRED;
  }
  const page = formPage(rated, form.token, rating);
  return {
    ...page,
    title: 'Thank you for your feedback',
    paragraphs: [
      `We recorded your rating: ${rating === 'good' ? 'Good' : 'Bad'}${comment ? ', with your comment' : ''}.`,
      'You can change it below until the ticket is reopened.',
    ],
  };
}
