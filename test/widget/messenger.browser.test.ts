import { SignJWT } from 'jose';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../console/agent-session.js';
import type { ConsoleServer } from '../console/console-server.js';
import type { SiteFixture } from '../site/site-fixture.js';
import type { HostSite } from './host-page.js';
import {
  IS_FOCUSED_IN_FOCUSED_FRAME,
  type MessengerSite,
  panelFrame,
  seriousProblems,
  startMessengerSite,
} from './messenger-page.js';

const GREETING = 'Hi! Search our answers, or ask us.';

/** The computed styles of the host page's own elements, and what else of the page the widget could touch. */
const hostLook = (page: Page) =>
  page.evaluate(`(() => {
    const properties = ['font-family', 'font-size', 'color', 'background-color', 'border-top-width', 'border-top-style',
      'border-top-color', 'padding-top', 'margin-top', 'box-sizing', 'line-height', 'letter-spacing', 'width', 'height'];
    const look = {};
    for (const selector of ['html', 'body', 'main', 'h1', '#intro', '#buy', '#box']) {
      const style = getComputedStyle(document.querySelector(selector));
      look[selector] = properties.map((property) => property + ': ' + style.getPropertyValue(property)).join('; ');
    }
    look.styleSheets = document.styleSheets.length;
    // axe is the accessibility check's own, added when it runs.
    look.globals = Object.keys(window).filter((name) => name !== 'axe').sort().join(' ');
    look.scroll = document.documentElement.scrollHeight + 'x' + document.documentElement.scrollWidth;
    return look;
  })()`);

/** Whether the launcher (inside the widget's shadow root) has the focus. */
const launcherFocused = (page: Page) =>
  page.evaluate(`(() => {
    const host = document.querySelector('switchboard-messenger');
    return document.activeElement === host && host.shadowRoot.activeElement?.classList.contains('launcher');
  })()`);

/** The browser's globals the functions run in the page use (the tests' types have no DOM). */
declare const document: { activeElement: unknown };
declare function getComputedStyle(element: unknown): {
  backgroundColor: string;
  color: string;
  fontFamily: string;
  borderTopStyle: string;
};

/** Whether the element has its document's focus. */
const IS_FOCUSED = (element: unknown) => document.activeElement === element;
const BUTTON_LOOK = (element: unknown) => {
  const style = getComputedStyle(element);
  return { background: style.backgroundColor, color: style.color, font: style.fontFamily, border: style.borderTopStyle };
};

const events = (page: Page) => page.evaluate('document.body.dataset.events ?? ""');

const storedToken = (frame: Frame, slug: string) =>
  (frame.evaluate(`localStorage.getItem(${JSON.stringify(`switchboard.visitor.${slug}`)})`) as Promise<string | null>).catch(
    // A frame still loading (or replaced by a reload) answers on the next try.
    () => null,
  );

describe('the messenger on a customer’s website (Chromium, SQLite)', () => {
  let fixture: MessengerSite;
  let server: ConsoleServer;
  let host: HostSite;
  let site: SiteFixture;
  let slug: string;

  const visit = (options: Parameters<MessengerSite['visit']>[0] = {}) => fixture.visit(options);

  beforeAll(async () => {
    fixture = await startMessengerSite({ siteName: 'Lumen Help' });
    ({ server, host, site } = fixture);
    slug = await fixture.enable({
      greeting: GREETING,
      // A yellow that only black text reads on.
      launcherColor: '#ffcc00',
      position: 'right',
    });
  }, 60_000);
  afterAll(() => fixture?.close());

  it('leaves the host page as it was, opens by keyboard, finds and reads an article, and closes with Escape', {
    timeout: 60_000,
  }, async () => {
    const { page } = await visit();
    await page.goto(host.url({ helpCenter: slug, loader: false }));
    const before = await hostLook(page);
    await page.goto(host.url({ helpCenter: slug }));
    await expect.poll(() => events(page)).toBe('ready');
    expect(await hostLook(page)).toEqual(before);

    // Drawn in its shadow root with the help center's colour: the page's red serif buttons do not reach it.
    const launcher = page.getByRole('button', { name: 'Support messenger' });
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');
    const look = await launcher.evaluate(BUTTON_LOOK);
    expect(look).toEqual({ background: 'rgb(255, 204, 0)', color: 'rgb(0, 0, 0)', font: expect.any(String), border: 'none' });
    expect(look.font).not.toMatch(/^serif/);
    // The panel is loaded only when opened.
    expect(await page.locator('iframe').count()).toBe(0);

    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('buy');
    await page.keyboard.press('Tab');
    expect(await launcherFocused(page)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await launcher.getAttribute('aria-expanded')).toBe('true');
    const panel = page.frameLocator('iframe[title="Support messenger"]');
    const searchBox = panel.getByRole('searchbox', { name: 'Search the help center' });
    // Focus goes into the panel, to its search box.
    await expect.poll(() => searchBox.evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(true);
    expect(await panel.getByRole('heading', { level: 1 }).textContent()).toBe('Lumen Help');
    await panel.getByText(GREETING).waitFor();
    expect(await events(page)).toBe('ready open');

    await page.keyboard.type('refund');
    const result = panel.getByRole('button', { name: /Refund policy/ });
    await result.waitFor();
    expect(await result.locator('mark').first().textContent()).toMatch(/^refund/i);
    expect(await panel.getByRole('status').textContent()).toMatch(/article/);
    await page.keyboard.press('Tab');
    expect(await result.evaluate(IS_FOCUSED)).toBe(true);
    await page.keyboard.press('Enter');

    const heading = panel.getByRole('heading', { name: 'Refund policy' });
    await heading.waitFor();
    expect(await panel.locator('.article-body').textContent()).toContain('We refund duplicate charges in full, at once.');
    const siteLink = panel.getByRole('link', { name: 'Open in the help center' });
    expect(await siteLink.getAttribute('href')).toBe(`${server.origin}${site.articles.refunds.path}`);
    expect(await siteLink.getAttribute('target')).toBe('_blank');
    expect(await siteLink.getAttribute('rel')).toBe('noopener');
    expect(await seriousProblems(page)).toEqual([]);
    expect(await hostLook(page)).toEqual(before);

    // Back to the results, on the result the visitor came from; and into the article again.
    await panel.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => result.evaluate(IS_FOCUSED)).toBe(true);
    expect(await searchBox.inputValue()).toBe('refund');
    await page.keyboard.press('Enter');
    await heading.waitFor();

    await page.keyboard.press('Escape');
    await expect.poll(() => launcher.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('iframe[title="Support messenger"]').isHidden()).toBe(true);
    expect(await launcherFocused(page)).toBe(true);
    expect(await events(page)).toBe('ready open close');
    expect(await hostLook(page)).toEqual(before);

    // Opened again, it is where the visitor left it; Escape on the launcher closes it too.
    await page.keyboard.press('Enter');
    await expect.poll(() => heading.evaluate(IS_FOCUSED)).toBe(true);
    await launcher.focus();
    await page.keyboard.press('Escape');
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');
  });

  it('runs calls queued before it loaded, and keeps the same visitor across a reload', { timeout: 60_000 }, async () => {
    const { page } = await visit();
    const visitorsMade: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/visitors')) {
        visitorsMade.push(request.url());
      }
    });
    // The page asks for the panel before the loader has arrived: the call waits in Switchboard.q.
    await page.addInitScript(
      'window.Switchboard = function () { (Switchboard.q = Switchboard.q || []).push(arguments); }; Switchboard("open");',
    );
    await page.goto(host.url({ helpCenter: slug }));
    const first = await panelFrame(page);
    await first.getByRole('searchbox', { name: 'Search the help center' }).waitFor();
    const token = await until(async () => (await storedToken(first, slug)) ?? undefined, 'the visitor token');

    await page.reload();
    const second = await panelFrame(page);
    await second.getByRole('searchbox', { name: 'Search the help center' }).waitFor();
    expect(await storedToken(second, slug)).toBe(token);
    expect(visitorsMade).toHaveLength(1);
    const me = await fetch(`${server.origin}/widget/${slug}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);

    // A stored token the server no longer knows answers 401: the panel makes a new visitor, once.
    await second.evaluate(`localStorage.setItem(${JSON.stringify(`switchboard.visitor.${slug}`)}, 'not-a-token')`);
    await page.reload();
    const third = await panelFrame(page);
    const replaced = await until(async () => {
      const stored = await storedToken(third, slug);
      return stored && stored !== 'not-a-token' ? stored : undefined;
    }, 'a new visitor token');
    expect(replaced).not.toBe(token);
    expect(visitorsMade).toHaveLength(2);
  });

  it('identifies the visitor with the host’s signed token, and ignores one signed with another secret', {
    timeout: 60_000,
  }, async () => {
    const { secret } = await server.call<{ secret: string }>('POST', `/help-centers/${site.helpCenterId}/widget/secret`);
    const sign = (key: string) =>
      new SignJWT({ email: 'ada@lumen.example', name: 'Ada Lovelace' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('customer-42')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(key));
    const { page } = await visit();
    await page.goto(host.url({ helpCenter: slug }));
    await page.evaluate('Switchboard("open")');
    const frame = await panelFrame(page);
    const anonymous = await until(async () => (await storedToken(frame, slug)) ?? undefined, 'the visitor token');

    await page.evaluate(`Switchboard('identify', { token: ${JSON.stringify(await sign(`${secret}-not`))} })`);
    await page.evaluate(`Switchboard('identify', { token: ${JSON.stringify(await sign(secret))} })`);
    const verified = await until(async () => {
      const stored = await storedToken(frame, slug);
      return stored && stored !== anonymous ? stored : undefined;
    }, 'the verified visitor token');
    const me = await fetch(`${server.origin}/widget/${slug}/api/me`, { headers: { authorization: `Bearer ${verified}` } });
    const { visitor } = (await me.json()) as { visitor: { verified: boolean; contact: { email: string } | null } };
    expect(visitor.verified).toBe(true);
    expect(visitor.contact?.email).toBe('ada@lumen.example');
  });

  it('shows the unread count the panel reports, and ignores the same message from any other window', {
    timeout: 60_000,
  }, async () => {
    const { page } = await visit();
    await page.goto(host.url({ helpCenter: slug }));
    await page.evaluate('Switchboard("open")');
    const frame = await panelFrame(page);
    await frame.getByRole('searchbox', { name: 'Search the help center' }).waitFor();
    const badge = page.locator('switchboard-messenger .badge');
    expect(await badge.isHidden()).toBe(true);

    // The host page (or any script in it) posting the panel's message changes nothing.
    await page.evaluate(`window.postMessage({ type: 'switchboard:unread', count: 5 }, '*')`);
    await page.evaluate(`window.parent.postMessage({ type: 'switchboard:close' }, '*')`);
    await frame.evaluate(`parent.postMessage({ type: 'switchboard:unread', count: 2 }, '*')`);
    // Only the panel's count was heard (messages arrive in the order they were posted).
    await expect.poll(() => page.evaluate('document.body.dataset.unread ?? ""')).toBe('2');
    expect(await page.getByRole('button', { name: /Support messenger/ }).getAttribute('aria-expanded')).toBe('true');
    expect(await badge.textContent()).toBe('2');
    expect(await page.getByRole('button', { name: 'Support messenger, 2 unread' }).count()).toBe(1);
    await frame.evaluate(`parent.postMessage({ type: 'switchboard:unread', count: 0 }, '*')`);
    await expect.poll(() => badge.isHidden()).toBe(true);
    expect(await page.evaluate('document.body.dataset.unread')).toBe('2 0');
    expect(await page.getByRole('button', { name: 'Support messenger' }).getAttribute('aria-label')).toBe('Support messenger');
  });

  it('fills a phone’s screen, and passes axe in the dark theme', { timeout: 60_000 }, async () => {
    const { page } = await visit({ viewport: { width: 375, height: 700 }, colorScheme: 'dark' });
    await page.goto(host.url({ helpCenter: slug }));
    await expect.poll(() => events(page)).toBe('ready');
    await page.getByRole('button', { name: 'Support messenger' }).click();
    const frame = await panelFrame(page);
    await frame.getByRole('searchbox', { name: 'Search the help center' }).fill('plan');
    await frame.getByRole('button', { name: /Changing your plan/ }).waitFor();
    const box = await page.locator('iframe[title="Support messenger"]').boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 375, height: 700 });
    expect(await frame.evaluate('getComputedStyle(document.body).backgroundColor')).not.toBe('rgb(255, 255, 255)');
    expect(await seriousProblems(page)).toEqual([]);
    // Its own close button hands focus back to the launcher.
    await frame.getByRole('button', { name: 'Close messenger' }).click();
    await expect.poll(() => launcherFocused(page)).toBe(true);
  });

  it('draws nothing for an unknown help center, or on a page whose origin the widget does not allow', {
    timeout: 60_000,
  }, async () => {
    const { page } = await visit();
    await page.goto(host.url({ helpCenter: 'no-such-help-center' }));
    await expect.poll(() => page.locator('switchboard-messenger').count()).toBe(0);
    expect(await events(page)).toBe('');
    // The same page at 127.0.0.1 is another origin than the allowed localhost one.
    await page.goto(host.url({ helpCenter: slug }).replace('//localhost:', '//127.0.0.1:'));
    await expect.poll(() => page.locator('switchboard-messenger').count()).toBe(0);
    expect(await events(page)).toBe('');
  });
});
