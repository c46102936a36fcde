import { escapeHtml, renderPlainPage } from '../../lib/plain-page.js';
import type { SurveyRating } from './satisfaction.table.js';

/**
 * The pages a survey link opens, for a customer in a mail client: the question with a one-press
 * form (Good or Bad, and a comment), a thank-you, or why the link cannot be used. Plain HTML from
 * the server, no script; every value escaped. Served with the verification page's headers
 * (`PLAIN_PAGE_HEADERS`: no-store, a CSP allowing only inline style and same-origin forms).
 */

export interface SurveyPage {
  status: number;
  title: string;
  paragraphs: string[];
  /** The rating form, on the page of a link that still holds. */
  form?: { action: string; ticket: string; token: string; rating: SurveyRating | null; comment: string | null };
}

function radio(value: SurveyRating, label: string, chosen: SurveyRating | null): string {
  const checked = chosen === value ? ' checked' : '';
  return `<label class="choice"><input type="radio" name="rating" value="${value}" required${checked}> ${label}</label>`;
}

function renderForm(form: NonNullable<SurveyPage['form']>): string {
  return [
    `<form method="post" action="${escapeHtml(form.action)}">`,
    `<input type="hidden" name="ticket" value="${escapeHtml(form.ticket)}">`,
    `<input type="hidden" name="token" value="${escapeHtml(form.token)}">`,
    '<fieldset><legend>Your rating</legend>',
    radio('good', 'Good, I am satisfied', form.rating),
    radio('bad', 'Bad, I am unsatisfied', form.rating),
    '</fieldset>',
    '<label for="comment">Anything to add? (optional)</label>',
    `<textarea id="comment" name="comment" rows="4" maxlength="2000">${escapeHtml(form.comment ?? '')}</textarea>`,
    '<button type="submit">Send my rating</button></form>',
  ].join('\n');
}

export function renderSurveyPage(page: SurveyPage): string {
  return renderPlainPage({
    title: page.title,
    paragraphs: page.paragraphs,
    after: page.form ? renderForm(page.form) : '',
    style:
      'fieldset{border:0;padding:0;margin:0 0 1rem}.choice{display:block;margin:.3rem 0}\n' +
      'textarea{display:block;width:100%;font:inherit;margin:.3rem 0 1rem}',
  });
}
