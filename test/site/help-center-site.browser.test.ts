import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../console/agent-session.js';
import { type ConsolePage, launchChromium, openConsole } from '../console/browser.js';
import { type ConsoleServer, startConsoleServer } from '../console/console-server.js';
import { pageFailures } from '../console/inbox-session.js';
import { decodeQuotedPrintable } from '../smtp.js';
import { type SiteFixture, seedSite } from './site-fixture.js';

/** Whether the element's top edge is on the screen now (a scrolled-to heading sits at 0, give or take a subpixel). */
const onScreen = (page: Page, selector: string) =>
  page.evaluate(`(() => {
    const top = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect().top;
    return top > -2 && top < window.innerHeight;
  })()`);

/** The focused element's text and the outline it shows, as the reader sees it. */
const focusOutline = (page: Page) =>
  page.evaluate(`(() => {
    const focused = document.activeElement;
    const style = getComputedStyle(focused);
    return { name: focused.textContent.trim(), style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
  })()`) as Promise<{ name: string; style: string; width: number }>;

/** WCAG's contrast ratio of two computed `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r = 0, g = 0, bl = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map((channel) => {
      const c = Number(channel) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** The focused element's outline colour and the background of the header it sits on. */
const headerFocusColours = (page: Page) =>
  page.evaluate(`(() => ({
    outline: getComputedStyle(document.activeElement).outlineColor,
    header: getComputedStyle(document.querySelector('.site-header')).backgroundColor,
  }))()`) as Promise<{ outline: string; header: string }>;

const focusedText = (page: Page) => page.evaluate('document.activeElement?.textContent');
const focusedId = (page: Page) => page.evaluate('document.activeElement?.id');

describe('the public help center in a browser (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let site: SiteFixture;
  const open: ConsolePage[] = [];

  const reader = async () => {
    const session = await openConsole(browser, server.origin);
    open.push(session);
    return session;
  };
  const articleCounts = (id: string) =>
    server.call<{ helpfulCount: number; notHelpfulCount: number }>('GET', `/articles/${id}`).then((article) => ({
      helpful: article.helpfulCount,
      notHelpful: article.notHelpfulCount,
    }));
  const commentsOf = (id: string) =>
    server.call<{ helpful: boolean; comment: string | null }[]>('GET', `/articles/${id}/feedback`);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    site = await seedSite(server, 'Lumen Help');
  });
  afterAll(async () => {
    await Promise.all(open.map((session) => session.context.close()));
    await browser?.close();
    await server?.close();
  });

  it('a reader opens the home page, a collection and an article, and its table of contents takes them to a section', {
    timeout: 60_000,
  }, async () => {
    const session = await reader();
    const { page } = session;
    await page.goto(`${site.base}/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Lumen Help');
    await page.getByText('Answers from the Lumen team').waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search articles' }).count()).toBe(1);
    const cards = page.getByRole('main').getByRole('listitem');
    expect(await cards.allInnerTexts()).toEqual([
      expect.stringMatching(/Getting started\s+Set up Lumen\s+1 article/),
      expect.stringMatching(/Billing\s+Plans, invoices and refunds\s+2 articles/),
    ]);

    await page.getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL(`**${site.collections.billing}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Billing');
    const articles = page.getByRole('region', { name: 'Articles' }).getByRole('link');
    // Published articles only, in order; the draft is not there.
    expect(await articles.allTextContents()).toEqual(['Refund policy', 'Changing your plan']);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Lumen Help' }).click();
    await page.waitForURL(`**${site.base}/`);

    await page.getByRole('link', { name: 'Getting started' }).click();
    await page.getByRole('link', { name: 'Install the desktop app' }).click();
    await page.waitForURL(`**${site.articles.install.path}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Install the desktop app');
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link');
    expect(await crumbs.allTextContents()).toEqual(['Lumen Help', 'Getting started']);
    const toc = page.getByRole('navigation', { name: 'On this page' });
    expect(await toc.getByRole('link').allTextContents()).toEqual([
      'Before you start',
      'On Windows',
      'Silent install',
      'On macOS',
    ]);
    expect(await onScreen(page, '#on-macos')).toBe(false);

    // From the keyboard: the entry scrolls its section into view, and the next Tab goes on from there.
    await toc.getByRole('link', { name: 'On macOS' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**#on-macos');
    await expect.poll(() => onScreen(page, '#on-macos')).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('the system requirements');

    // By mouse: the section comes into view too.
    await toc.getByRole('link', { name: 'Before you start' }).click();
    await page.waitForURL('**#before-you-start');
    await expect.poll(() => onScreen(page, '#before-you-start')).toBe(true);

    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('a reader searches from the home page, sees highlighted results and opens one; a search that finds nothing says so', {
    timeout: 60_000,
  }, async () => {
    const session = await reader();
    const { page } = session;
    await page.goto(`${site.base}/`);
    await page.getByRole('searchbox', { name: 'Search articles' }).fill('refunded');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${site.base}/search?q=refunded`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Search results');
    // The search box keeps what was asked.
    expect(await page.getByRole('searchbox', { name: 'Search articles' }).inputValue()).toBe('refunded');
    const results = page.getByRole('main').getByRole('listitem');
    expect(await results.count()).toBe(1);
    expect(await results.locator('mark').count()).toBeGreaterThan(0);
    await results.getByRole('link', { name: 'Refund policy' }).click();
    await page.waitForURL(`**${site.articles.refunds.path}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Refund policy');

    // The header's search box on an article page searches too.
    await page.getByRole('searchbox', { name: 'Search articles' }).fill('teleportation');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/search?q=teleportation');
    await page.getByText('No articles match').waitFor();
    expect(await page.getByText('teleportation', { exact: true }).count()).toBe(1);

    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('an unknown address shows the themed 404 page, with its way back', { timeout: 60_000 }, async () => {
    const session = await reader();
    const { page } = session;
    const response = await page.goto(`${site.base}/articles/999999-no-such-article`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await page.getByRole('link', { name: "Go to the help center's home" }).click();
    await page.waitForURL(`**${site.base}/`);

    const unknown = await page.goto('/hc/no-such-help-center/');
    expect(unknown?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    expect(pageFailures(session).filter((error) => !error.includes('404'))).toEqual([]);
  });

  it('the keyboard: the skip link is the first Tab stop and moves focus to the content; links and buttons show their focus', {
    timeout: 60_000,
  }, async () => {
    const { page } = await reader();
    await page.goto(site.articles.refunds.path);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await focusedText(page)).toBe('Skip to content');
    expect(await skip.count()).toBe(1);
    // Hidden until focused, then on screen and outlined.
    expect(await onScreen(page, '.skip-link')).toBe(true);
    expect(await focusOutline(page)).toMatchObject({ style: 'solid', width: expect.any(Number) });
    // Next, the header's home link: its ring reads on the brand colour (3:1, as WCAG asks of focus indicators).
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Lumen Help');
    const { outline, header } = await headerFocusColours(page);
    expect(contrast(outline, header), `${outline} on ${header}`).toBeGreaterThanOrEqual(3);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    expect(await focusedId(page)).toBe('main');

    // Tab on from the content: the breadcrumbs' first link, outlined as focus-visible draws it.
    await page.keyboard.press('Tab');
    const link = await focusOutline(page);
    expect(link?.name).toBe('Lumen Help');
    expect(link?.style).toBe('solid');
    expect(link?.width).toBeGreaterThanOrEqual(2);

    await page.getByRole('button', { name: 'Yes' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const button = await focusOutline(page);
    expect(button?.name).toBe('Yes');
    expect(button?.style).toBe('solid');
    expect(button?.width).toBeGreaterThanOrEqual(2);
  });

  it('on a phone, pages fit the screen and their text keeps off its edges', { timeout: 60_000 }, async () => {
    const session = await openConsole(browser, server.origin, { viewport: { width: 390, height: 844 } });
    open.push(session);
    for (const path of [`${site.base}/`, site.collections.billing, site.articles.install.path, `${site.base}/search?q=refund`]) {
      await session.page.goto(path);
      expect(await session.page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), path).toBe(true);
      const left = await session.page.evaluate(`document.querySelector('main h1').getBoundingClientRect().left`);
      expect(left, path).toBeGreaterThanOrEqual(16);
    }
  });

  it('with JavaScript, "No" turns into a comment form in place, its comment is sent in place too, and "Yes" thanks in place', {
    timeout: 60_000,
  }, async () => {
    const session = await reader();
    const { page } = session;
    await page.goto(site.articles.refunds.path);
    // A mark that a page load would wipe: the votes must not reload the page.
    await page.evaluate('window.stayed = true');
    await page.getByRole('button', { name: 'No' }).click();
    await page.getByRole('heading', { name: 'Thanks for telling us' }).waitFor();
    expect(await focusedId(page)).toBe('feedback-comment');
    await page.getByLabel('What was missing or unclear? (optional)').fill('How long does a refund to PayPal take?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Thanks for your feedback' }).waitFor();
    expect(await page.getByRole('status').textContent()).toContain('We read every comment');
    expect(await page.evaluate('window.stayed')).toBe(true);
    expect(page.url()).toBe(`${server.origin}${site.articles.refunds.path}`);

    await page.goto(site.articles.plans.path);
    await page.evaluate('window.stayed = true');
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByRole('status').getByText('Glad it helped.').waitFor();
    expect(await page.evaluate('window.stayed')).toBe(true);

    expect(await articleCounts(site.articles.refunds.id)).toEqual({ helpful: 0, notHelpful: 1 });
    expect(await commentsOf(site.articles.refunds.id)).toMatchObject([
      { helpful: false, comment: 'How long does a refund to PayPal take?' },
    ]);
    expect(await articleCounts(site.articles.plans.id)).toEqual({ helpful: 1, notHelpful: 0 });
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('without JavaScript, the same votes are plain form posts that answer with the next step', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ baseURL: server.origin, javaScriptEnabled: false });
    open.push({ context, page: await context.newPage(), foreignRequests: [], pageErrors: [] });
    const page = context.pages()[0] as Page;
    await page.goto(site.articles.install.path);
    await page.getByRole('button', { name: 'No' }).click();
    await page.getByRole('heading', { name: 'Thanks for telling us' }).waitFor();
    // Still the article's page, now saying what comes next.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Install the desktop app');
    await page.getByLabel('What was missing or unclear? (optional)').fill('Nothing about Linux.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Thanks for your feedback' }).waitFor();

    expect(await articleCounts(site.articles.install.id)).toEqual({ helpful: 0, notHelpful: 1 });
    expect(await commentsOf(site.articles.install.id)).toMatchObject([{ helpful: false, comment: 'Nothing about Linux.' }]);
  });

  it('a customer signs in with the emailed link, reads a protected article, and signs out', { timeout: 60_000 }, async () => {
    const partners = await server.call<{ _id: string; uid: number; slug: string }>('POST', '/collections', {
      helpCenterId: site.helpCenterId,
      name: 'Partners',
      isProtected: true,
    });
    const pricing = await server.call<{ _id: string; slug: string }>('POST', '/articles', {
      collectionId: partners._id,
      title: 'Partner pricing',
      contentHtml: '<p>Resellers get 20% off every plan.</p>',
    });
    await server.call('POST', `/articles/${pricing._id}/publish`);
    await server.call('POST', '/v1/accounts/contacts', { firstName: 'Pat', lastName: 'Partner', email: 'pat@partner.test' });
    const article = `${site.base}/articles/${pricing.slug}`;

    const session = await reader();
    const { page } = session;
    expect((await page.goto(article))?.status()).toBe(404);
    await page.goto(`${site.base}/sign-in?next=${encodeURIComponent(article)}`);
    await page.getByLabel('Email address').fill('pat@partner.test');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();

    const mail = await until(() => server.mail.find((message) => message.to.includes('pat@partner.test')), 'the sign-in email');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/hc\/\S+\/sign-in\/\S+)/.exec(decodeQuotedPrintable(mail.raw))?.[1];
    expect(link).toBeDefined();
    await page.goto(link ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`**${article}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Partner pricing');
    await page.getByRole('banner').getByText('Pat Partner').waitFor();
    await page.getByRole('link', { name: 'Lumen Help' }).first().click();
    await page.getByRole('link', { name: 'Partners' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`**${site.base}/`);
    expect(await page.getByRole('link', { name: 'Partners' }).count()).toBe(0);
    expect((await page.goto(article))?.status()).toBe(404);
    // The link worked once.
    await page.goto(link ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'This sign-in link does not work' }).waitFor();
    expect(session.foreignRequests).toEqual([]);
  });
});
