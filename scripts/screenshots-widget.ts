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

const PERSON_REPLY =
  'Hi, this is Ana from Lumen support. I have sent you a link to the Windows installer; it takes about a minute.';
const FOLLOW_UP = 'Thanks Ana, downloading it now.';

/**
 * The messenger of the README: the demo's help center gets its widget (allowed on a vendor page
 * served from another loopback origin) and an AI agent whose model is a scripted loopback model
 * server (the demo has no model), then the open panel's search, and a conversation whose answer
 * cites the guide it found. The visitor then asks for a person: the demo agent, signed in to the
 * console (`signIn`), sees the visitor online and typing on the chat ticket and replies, and the
 * reply is pictured in the panel.
 */
export async function shootWidget(
  browser: Browser,
  origin: string,
  api: ApiCall,
  helpCenter: { _id: string; slug: string },
  shoot: (name: string, page: Page) => Promise<void>,
  signIn: () => Promise<Page>,
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
    const team = await handoffTeam(api);
    await api('PATCH', `/help-centers/${helpCenter._id}`, {
      widget: {
        enabled: true,
        allowedOrigins: [vendor.origin],
        agentId: agent.id,
        handoffTeamId: team.id,
        greeting: 'Hi! Search our guides or ask us.',
      },
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
      await shootHandoff(page, panel, shoot, signIn);
    } finally {
      await context.close();
    }
  } finally {
    await model.close();
    await new Promise((resolve) => vendor.server.close(resolve));
  }
}

/** The demo's first team, open around the clock so that the pictures never depend on the hour they are taken. */
async function handoffTeam(api: ApiCall): Promise<{ id: string }> {
  const teams = await api<{ id: string }[]>('GET', '/v1/teams');
  const team = teams[0];
  if (!team) {
    throw new Error('the demo has no team to take the handoffs');
  }
  await api('PATCH', `/v1/teams/${team.id}/configurations`, {
    timezone: 'UTC',
    commonDailyConfig: true,
    commonSlots: [{ start: '00:00', end: '24:00' }],
  });
  return team;
}

/** "Talk to a person", the chat ticket in the console with the visitor online and typing, and the person's reply in the panel. */
async function shootHandoff(
  page: Page,
  panel: Frame,
  shoot: (name: string, page: Page) => Promise<void>,
  signIn: () => Promise<Page>,
): Promise<void> {
  await panel.getByRole('button', { name: 'Talk to a person' }).click();
  const notice = panel.getByRole('region', { name: 'Talking to a person' });
  const reference = /^Reference: (\S+)$/.exec((await notice.getByText(/^Reference: /).textContent()) ?? '')?.[1];
  if (!reference) {
    throw new Error('the handoff notice shows no ticket reference');
  }
  const console = await signIn();
  try {
    await console
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: /All open/ })
      .click();
    const row = console.getByRole('row').filter({ has: console.getByRole('cell', { name: reference, exact: true }) });
    await row.getByRole('link').first().click();
    await console.getByText('Chatting in the messenger', { exact: false }).waitFor();
    // The visitor starts writing: the ticket page says so.
    await panel.getByRole('textbox', { name: 'Your question' }).pressSequentially('Thanks', { delay: 30 });
    await console.getByText('Visitor is typing').waitFor();
    await console.getByRole('textbox', { name: 'Message' }).fill(PERSON_REPLY);
    await shoot('ticket-chat', console);
    await console.getByRole('button', { name: 'Send' }).click();
    await panel.locator('.message.agent').filter({ hasText: PERSON_REPLY }).waitFor();
    await panel.getByRole('textbox', { name: 'Your question' }).fill(FOLLOW_UP);
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByText(FOLLOW_UP).waitFor();
    await shoot('messenger-handoff', page);
  } finally {
    await console.context().close();
  }
}
