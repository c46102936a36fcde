import { AxeBuilder } from '@axe-core/playwright';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { until } from '../console/agent-session.js';
import { type ConsolePage, launchChromium, openConsole } from '../console/browser.js';
import { type ConsoleServer, startConsoleServer } from '../console/console-server.js';
import { startModelServer } from '../model-server.js';
import { seedSite } from '../site/site-fixture.js';
import { startHostSite } from './host-page.js';

/**
 * What the messenger's browser flows share: the checks run in the visitor's page, opening the
 * panel on the host page, and the help center's answering agent on the loopback model server.
 */

/** The messenger's serious and critical problems as axe finds them on the page with the panel open (WCAG 2.1 A and AA). */
export async function seriousProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${JSON.stringify(node.target)} (${violation.help})`));
}

/** The browser's globals the functions run in the page use (the tests' types have no DOM). */
declare const document: { activeElement: unknown; hasFocus(): boolean };

/** Whether the element has the focus, and its frame too (run in the panel's frame). */
export const IS_FOCUSED_IN_FOCUSED_FRAME = (element: unknown) => document.hasFocus() && document.activeElement === element;

/** The panel's frame once it has loaded. */
export const panelFrame = (page: Page): Promise<Frame> =>
  until(() => page.frames().find((frame) => frame.url().includes('/widget/')), 'the panel frame');

/** The `unread` events the host page heard, space-separated (the host page records them). */
export const unreadEvents = (page: Page) => page.evaluate('document.body.dataset.unread ?? ""');

/** Opens the messenger on the host page at `url` and its conversation; the panel's frame. */
export async function openConversation(page: Page, url: string): Promise<FrameLocator> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Support messenger' }).click();
  const panel = page.frameLocator('iframe[title="Support messenger"]');
  await panel.getByRole('button', { name: 'Ask a question' }).click();
  return panel;
}

/** An AI agent answering with the loopback model server at `baseUrl`; its id. */
export async function createAnsweringAgent(server: ConsoleServer, baseUrl: string): Promise<string> {
  const provider = await server.call<{ id: string }>('POST', '/api/v1/model-providers', {
    name: 'Loopback',
    kind: 'openai_compatible',
    base_url: baseUrl,
    api_key: 'sk-messenger',
    default_model: 'test-model',
  });
  const agent = await server.call<{ id: string }>('POST', '/api/v1/agents', {
    name: 'Answers',
    configuration: { model_provider_id: provider.id },
  });
  return agent.id;
}

/** Closes the visitors' and agents' browser contexts, then each of the rest in turn (the browser, the host site, the servers). */
export async function closeAll(
  sessions: readonly ConsolePage[],
  ...rest: ({ close(): Promise<unknown> } | undefined)[]
): Promise<void> {
  await Promise.all(sessions.map((session) => session.context.close()));
  for (const closable of rest) {
    await closable?.close();
  }
}

/**
 * A Switchboard console server with a seeded help center (`seedSite`), the system Chromium with
 * partitioned storage (a panel's storage is the host page's third party), and the host page on a
 * second loopback origin; the loopback model server too when asked. `enable` turns the messenger
 * on; `visit` opens a visitor's browser context on the host origin; `close` ends everything.
 */
export async function startMessengerSite(options: { siteName: string; env?: Record<string, string>; model?: boolean }) {
  const [server, browser, model] = await Promise.all([
    startConsoleServer(options.env ?? {}),
    launchChromium({ partitionedStorage: true }),
    options.model ? startModelServer() : undefined,
  ]);
  const host = await startHostSite(server.origin);
  const site = await seedSite(server, options.siteName);
  const sessions: ConsolePage[] = [];
  return {
    server,
    browser,
    host,
    site,
    model,
    /** Keeps a browser context (a visitor's or an agent's) to close with the rest. */
    keep(session: ConsolePage): ConsolePage {
      sessions.push(session);
      return session;
    },
    async visit(visitOptions: Parameters<typeof openConsole>[2] = {}): Promise<ConsolePage> {
      return this.keep(await openConsole(browser, host.origin, visitOptions));
    },
    /** Turns the help center's messenger on for the host page's origin, with `widget`'s other settings; its slug. */
    async enable(widget: Record<string, unknown> = {}): Promise<string> {
      const helpCenter = await server.call<{ slug: string }>('PATCH', `/help-centers/${site.helpCenterId}`, {
        widget: { enabled: true, allowedOrigins: [host.origin], ...widget },
      });
      return helpCenter.slug;
    },
    close: () => closeAll(sessions, browser, host, model, server),
  };
}

export type MessengerSite = Awaited<ReturnType<typeof startMessengerSite>>;
