/**
 * Small server-rendered pages a person opens from an email link (a mailbox's verification, a
 * satisfaction survey): plain HTML, no script, every value escaped, one shared look.
 */

/** Headers of every such page: never cached, never framed (a button under someone else's page), no referrer. */
export const PLAIN_PAGE_HEADERS = {
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

const BASE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2933}\n' +
  'h1{font-size:1.4rem}button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid #1d4ed8;\n' +
  'background:#2563eb;color:#fff;cursor:pointer}';

/** A page: its title as the heading, its paragraphs escaped, then `after` (HTML the caller escaped), with the page's own `style`. */
export function renderPlainPage(page: { title: string; paragraphs: readonly string[]; after?: string; style?: string }): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(page.title)} · Switchboard</title>`,
    `<style>${BASE_STYLE}${page.style ? `\n${page.style}` : ''}</style>`,
    `</head><body><main><h1>${escapeHtml(page.title)}</h1>`,
    ...page.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    page.after ?? '',
    '</main></body></html>',
  ].join('\n');
}
