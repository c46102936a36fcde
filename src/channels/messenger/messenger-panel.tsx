import type { MessengerHelpCenter } from './messenger-widget.js';

/**
 * The panel's page for the host page's iframe (the contract of issue 34): the panel's own script
 * and stylesheet, nothing inline. Only the sites in `allowedOrigins` may frame it.
 */
export function panelPage(helpCenter: MessengerHelpCenter): { headers: Record<string, string>; body: string } {
  const { name, slug } = helpCenter.site;
  const body = `<!doctype html>${(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title safe>{`${name} support`}</title>
        <link rel="stylesheet" href="/widget-assets/panel.css" />
      </head>
      <body>
        <div id="switchboard-panel" data-help-center={slug} data-api={`/widget/${slug}/api`} />
        <script type="module" src="/widget-assets/panel.js" />
      </body>
    </html>
  )}`;
  // Origins are stored in the form CSP matches (scheme, host, port), never with spaces or semicolons.
  const ancestors = helpCenter.widget.allowedOrigins.length > 0 ? helpCenter.widget.allowedOrigins.join(' ') : "'none'";
  return {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        `frame-ancestors ${ancestors}`,
      ].join('; '),
      // The settings decide who may frame it: a cached copy would keep an origin that was removed.
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
    body,
  };
}

/** The small page answered for an unknown help center or a disabled widget. */
export function notFoundPage(): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><p>This messenger is not available.</p></body></html>',
  };
}
