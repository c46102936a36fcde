import { escapeHtml, renderPlainPage } from '../../lib/plain-page.js';

/**
 * The pages a verification link opens, for a person who clicked it in a mail client: what is
 * asked, by whom, and one button. Plain HTML from the server, no script; every value escaped.
 */

export interface VerificationPage {
  status: number;
  title: string;
  paragraphs: string[];
  /** The confirmation form, on the page of a link that can still be used. */
  confirm?: { token: string; action: string };
}

export function renderVerificationPage(page: VerificationPage): string {
  const form = page.confirm
    ? `<form method="post" action="${escapeHtml(page.confirm.action)}">` +
      `<input type="hidden" name="token" value="${escapeHtml(page.confirm.token)}">` +
      '<button type="submit">Confirm this address</button></form>'
    : '';
  return renderPlainPage({ title: page.title, paragraphs: page.paragraphs, after: form });
}
