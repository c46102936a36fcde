import { escapeHtml } from '../mailboxes/mailbox-verification.page.js';
import type { SurveyRating } from './satisfaction.table.js';

/**
 * The pages a survey link opens, for a customer in a mail client: the question with a one-press
 * form (Good or Bad, and a comment), a thank-you, or why the link cannot be used. Plain HTML from
 * the server, no script; every value escaped. Served with the verification page's headers
 * (`VERIFICATION_PAGE_HEADERS`: no-store, a CSP allowing only inline style and same-origin forms).
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
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(page.title)} · Switchboard</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2933}',
    'h1{font-size:1.4rem}fieldset{border:0;padding:0;margin:0 0 1rem}.choice{display:block;margin:.3rem 0}',
    'textarea{display:block;width:100%;font:inherit;margin:.3rem 0 1rem}',
    'button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid #1d4ed8;',
    'background:#2563eb;color:#fff;cursor:pointer}</style>',
    `</head><body><main><h1>${escapeHtml(page.title)}</h1>`,
    ...page.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    page.form ? renderForm(page.form) : '',
    '</main></body></html>',
  ].join('\n');
}
