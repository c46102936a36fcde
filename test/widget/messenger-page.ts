import { AxeBuilder } from '@axe-core/playwright';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { until } from '../console/agent-session.js';
import type { ConsolePage } from '../console/browser.js';
import type { ConsoleServer } from '../console/console-server.js';

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
