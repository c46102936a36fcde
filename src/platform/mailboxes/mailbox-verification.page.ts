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

/** Headers of every page: never cached, never framed (a confirm button under someone else's page), no referrer. */
export const VERIFICATION_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
} as const;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

export function renderVerificationPage(page: VerificationPage): string {
  const form = page.confirm
    ? `<form method="post" action="${escapeHtml(page.confirm.action)}">` +
      `<input type="hidden" name="token" value="${escapeHtml(page.confirm.token)}">` +
      '<button type="submit">Confirm this address</button></form>'
    : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(page.title)} · Switchboard</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2933}',
    'h1{font-size:1.4rem}button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid #1d4ed8;',
    'background:#2563eb;color:#fff;cursor:pointer}</style>',
    `</head><body><main><h1>${escapeHtml(page.title)}</h1>`,
    ...page.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    form,
    '</main></body></html>',
  ].join('\n');
}
