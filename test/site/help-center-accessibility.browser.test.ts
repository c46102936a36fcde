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
    // The comment form that follows a "No" (as a plain form post shows it).
    ['article after No', `${site.articles.refunds.path}?feedback=no`],
    ['search', `${site.base}/search?q=refund`],
    ['search without results', `${site.base}/search?q=teleportation`],
    ['404', `${site.base}/articles/999999-no-such-article`],
    ['sign-in', `${site.base}/sign-in`],
  ];
}

/** The pages where the brand colour carries text: the banner, the header, buttons, links, the footer. */
const BRAND_PAGES = new Set(['home', 'article', 'search', 'sign-in']);

describe('the public help center meets WCAG 2.1 AA as axe checks it (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let site: SiteFixture;
  let yellow: SiteFixture;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    site = await seedSite(server, 'Lumen Support');
    // A brand colour no text reads on as chosen: the theme must shade it wherever it carries text.
    yellow = await seedSite(server, 'Sunny Support');
    await server.call('PATCH', `/help-centers/${yellow.helpCenterId}`, {
      theme: { primaryColor: '#ffff00', footerLinks: [{ label: 'Status', url: 'https://status.sunny.example' }] },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each([
    ['the default colours', 'light'],
    ['the default colours', 'dark'],
    ['a yellow brand', 'light'],
    ['a yellow brand', 'dark'],
  ] as const)('every page in %s, %s', { timeout: 60_000 }, async (colours, colorScheme) => {
    const session = await openConsole(browser, server.origin, { colorScheme });
    const problems: string[] = [];
    const pages = colours === 'a yellow brand' ? pagesOf(yellow).filter(([name]) => BRAND_PAGES.has(name)) : pagesOf(site);
    for (const [name, path] of pages) {
      await session.page.goto(path);
      problems.push(...(await accessibilityProblems(session.page)).map((problem) => `${name}: ${problem}`));
    }
    if (colours === 'a yellow brand') {
      // The colour is the help center's: yellow carries dark text, so the header keeps it as chosen.
      expect(await session.page.evaluate(`getComputedStyle(document.querySelector('.site-header')).backgroundColor`)).toBe(
        'rgb(255, 255, 0)',
      );
    }
    expect(problems).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    await session.context.close();
  });
});
