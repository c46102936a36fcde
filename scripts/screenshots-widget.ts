import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { type ModelRequest, startModelServer } from '../test/model-server.js';

/** Calls an API of the running app with the demo admin's key; answers the body's `data`, or the body. */
export type ApiCall = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * A vendor's own website, on another origin than Switchboard: the page the README's messenger
 * pictures show the widget on, with the usual snippet.
 */
function vendorPage(switchboardOrigin: string, helpCenterSlug: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Lumen: printing for small offices</title>
<style>
  body { margin: 0; font-family: Georgia, serif; color: #1f2933; background: #f7f5ef; }
  header { padding: 20px 48px; background: #12344d; color: #fff; font-size: 22px; }
  main { max-width: 720px; padding: 40px 48px; }
  h1 { font-size: 40px; margin: 0 0 16px; }
  p { font-size: 19px; line-height: 1.6; }
  a.button { display: inline-block; margin-top: 12px; padding: 12px 20px; background: #c2410c; color: #fff; text-decoration: none; }
</style>
</head>
<body>
<header>Lumen</header>
<main>
<h1>Print from anywhere, release at the printer</h1>
<p>Lumen queues every print job of your office until you walk up to a printer and release it, from Windows, macOS and phones.</p>
<a class="button" href="#pricing">See the plans</a>
</main>
<script>window.Switchboard = window.Switchboard || function () { (Switchboard.q = Switchboard.q || []).push(arguments); };</script>
<script src="${switchboardOrigin}/widget.js" data-help-center="${helpCenterSlug}" async></script>
</body>
</html>`;
}

async function serveVendorPage(html: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

/** The first article link a knowledge-base search gave the model: the answer cites it. */
function linkOfLastSearch(request: ModelRequest): string {
  const tool = [...request.body.messages].reverse().find((message) => message.role === 'tool');
  const text = typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content ?? '');
  return /https?:\/\/[^"\\\s]+\/articles\/[^"\\\s]+/.exec(text)?.[0] ?? '';
}

async function panelOf(page: Page): Promise<Frame> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const frame = page.frames().find((candidate) => candidate.url().includes('/widget/'));
    if (frame) {
      return frame;
    }
    await page.waitForTimeout(50);
  }
  throw new Error('the messenger panel did not open');
}

/**
 * The messenger of the README: the demo's help center gets its widget (allowed on a vendor page
 * served from another loopback origin) and an AI agent whose model is a scripted loopback model
 * server (the demo has no model), then the open panel's search, and a conversation whose answer
 * cites the guide it found.
 */
export async function shootWidget(
  browser: Browser,
  origin: string,
  api: ApiCall,
  helpCenter: { _id: string; slug: string },
  shoot: (name: string, page: Page) => Promise<void>,
): Promise<void> {
  const model = await startModelServer();
  const vendor = await serveVendorPage(vendorPage(origin, helpCenter.slug));
  try {
    const provider = await api<{ id: string }>('POST', '/api/v1/model-providers', {
      name: 'Screenshots model',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-screenshots',
      default_model: 'screenshots-model',
    });
    const agent = await api<{ id: string }>('POST', '/api/v1/agents', {
      name: 'Lumen assistant',
      configuration: { model_provider_id: provider.id },
    });
    await api('PATCH', `/help-centers/${helpCenter._id}`, {
      widget: { enabled: true, allowedOrigins: [vendor.origin], agentId: agent.id, greeting: 'Hi! Search our guides or ask us.' },
    });
    model.script({ toolCalls: [{ name: 'search_knowledge_base', arguments: { query: 'install desktop app' } }] }, (request) => ({
      text:
        'Download the installer from Settings → Apps in the Lumen dashboard, run it with the defaults, then sign in ' +
        `with your Lumen account. The guide has the macOS steps too: ${linkOfLastSearch(request)}`,
      chunkDelayMs: 5,
    }));

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(vendor.origin);
      const launcher = page.getByRole('button', { name: /Support messenger/ });
      await launcher.click();
      const panel = await panelOf(page);
      await panel.getByRole('searchbox', { name: 'Search the help center' }).fill('desktop app');
      await panel.getByText('Installing the Lumen desktop app').first().waitFor();
      await shoot('messenger', page);
      await panel.getByRole('button', { name: 'Ask a question' }).click();
      await panel.getByRole('textbox', { name: 'Your question' }).fill('How do I install Lumen on my laptop?');
      await panel.getByRole('button', { name: 'Send' }).click();
      await panel.getByRole('list', { name: 'Sources' }).waitFor();
      await shoot('messenger-chat', page);
    } finally {
      await context.close();
    }
  } finally {
    await model.close();
    await new Promise((resolve) => vendor.server.close(resolve));
  }
}
