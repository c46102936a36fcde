import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems } from '../console/axe.js';
import { launchChromium, openConsole } from '../console/browser.js';
import { type ConsoleServer, startConsoleServer } from '../console/console-server.js';
import { type SiteFixture, seedSite } from './site-fixture.js';

/** The pages axe checks, by what they are. */
function pagesOf(site: SiteFixture): [string, string][] {
  return [
    ['home', `${site.base}/`],
    ['collection', site.collections.billing],
    ['article', site.articles.install.path],
    ['search', `${site.base}/search?q=refund`],
    ['search without results', `${site.base}/search?q=teleportation`],
    ['404', `${site.base}/articles/999999-no-such-article`],
  ];
}

describe('the public help center meets WCAG 2.1 AA as axe checks it (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let site: SiteFixture;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    site = await seedSite(server, 'Lumen Support');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(['light', 'dark'] as const)('every page in the default colours, %s', { timeout: 60_000 }, async (colorScheme) => {
    const session = await openConsole(browser, server.origin, { colorScheme });
    const problems: string[] = [];
    for (const [name, path] of pagesOf(site)) {
      await session.page.goto(path);
      problems.push(...(await accessibilityProblems(session.page)).map((problem) => `${name}: ${problem}`));
    }
    expect(problems).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    await session.context.close();
  });
});
