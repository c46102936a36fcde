import { createServer, type Server } from 'node:http';

export interface HostSite {
  /** `http://localhost:PORT`: another origin than the Switchboard server's `http://127.0.0.1:PORT`. */
  origin: string;
  /** The host page embedding the messenger of `helpCenter` (`loader: false`: the same page without the loader). */
  url(options: { helpCenter: string; loader?: boolean }): string;
  close(): Promise<void>;
}

/**
 * The customer's own website: a page with CSS of its own that would spoil a widget drawn in the
 * page's DOM (red serif buttons, bordered divs, a global box-sizing), the usual snippet queueing
 * calls before the loader arrives, and handlers recording the messenger's events in `data-` attributes.
 */
function hostPage(switchboardOrigin: string, helpCenter: string, loader: boolean): string {
  const slug = JSON.stringify(helpCenter).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Lumen printers</title>
<style>
  * { box-sizing: content-box; }
  body { font-family: serif; color: rgb(20, 30, 40); background: rgb(250, 250, 240); margin: 12px; }
  h1 { font-size: 30px; letter-spacing: 2px; }
  button { background: rgb(170, 0, 0); color: white; font-family: serif; font-size: 19px; padding: 7px; border: 3px solid black; border-radius: 0; }
  div { border: 2px dashed green; padding: 4px; }
  iframe { border: 6px dotted blue; width: 50px; }
  p { line-height: 2; }
</style>
</head>
<body>
<main>
<h1>Lumen printers</h1>
<p id="intro">Printers for small offices.</p>
<button id="buy" type="button">Buy now</button>
<div id="box">Free delivery</div>
</main>
<script>
  window.Switchboard = window.Switchboard || function () { (Switchboard.q = Switchboard.q || []).push(arguments); };
  var events = [];
  ['ready', 'open', 'close'].forEach(function (name) {
    Switchboard('on', name, function () { events.push(name); document.body.dataset.events = events.join(' '); });
  });
  var unread = [];
  Switchboard('on', 'unread', function (count) { unread.push(count); document.body.dataset.unread = unread.join(' '); });
</script>
${loader ? `<script src="${switchboardOrigin}/widget.js" data-help-center=${slug} async></script>` : ''}
</body>
</html>`;
}

/** Serves the host page on localhost (the Switchboard server is reached as 127.0.0.1: two origins). */
export async function startHostSite(switchboardOrigin: string): Promise<HostSite> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/') {
      response.writeHead(404).end();
      return;
    }
    const helpCenter = url.searchParams.get('hc') ?? '';
    const html = hostPage(switchboardOrigin, helpCenter, url.searchParams.get('loader') !== 'no');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('not listening on a TCP port');
  }
  const origin = `http://localhost:${address.port}`;
  return {
    origin,
    url: ({ helpCenter, loader = true }) => `${origin}/?hc=${encodeURIComponent(helpCenter)}${loader ? '' : '&loader=no'}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
