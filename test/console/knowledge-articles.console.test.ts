import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { type ConsolePage, launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface ArticleShape {
  _id: string;
  title: string;
  state: string;
  contentHtml: string;
  tags: string[];
  revision: number;
  publishedVersion: { html: string } | null;
}

interface TagShape {
  _id: string;
  name: string;
}

/** A 1×1 PNG. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** The upload limit of this server: small, so a too-large image is cheap to make. */
const LIMIT = 4096;

/** What a Google Docs copy looks like on the clipboard, with a script and a handler slipped in. */
const PASTED_HTML = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1"><h2 dir="ltr" style="font-size:16pt;color:#ff0000">Pasted heading</h2><ul style="margin:0"><li dir="ltr" style="list-style-type:disc"><p dir="ltr"><span style="font-family:Arial;font-weight:700">Pasted item</span></p></li></ul><p><a href="https://docs.example.test/page" style="color:#1155cc" onclick="window.__pwned='click'">Pasted link</a></p><pre><code>npm install pasted</code></pre><table style="border:1px solid"><tbody><tr><td><p>Cell A</p></td><td><p>Cell B</p></td></tr></tbody></table></b><script>window.__pwned='script'</script><img src="/no-such-image.png" onerror="window.__pwned='onerror'" alt="x"><p><a href="javascript:window.__pwned='link'">Bad link</a></p>`;

/** Pastes `html` into the focused editor as a browser would from the clipboard. */
async function paste(page: Page, html: string) {
  // A string, evaluated in the page: the test compiles without the DOM's types.
  await page.evaluate(`(() => {
    const data = new DataTransfer();
    data.setData('text/html', ${JSON.stringify(html)});
    data.setData('text/plain', 'pasted');
    const target = document.querySelector('[role="textbox"][contenteditable="true"]');
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  })()`);
}

const body = (page: Page) => page.getByRole('textbox', { name: 'Body' });
const saved = (page: Page) => page.getByRole('status').getByText('All changes saved').waitFor();

describe('the Knowledge area: articles, the editor and tags (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let lea: Agent;
  let session: ConsolePage;
  let helpCenterId: string;
  let collectionId: string;

  const article = (id: string) => server.call<ArticleShape>('GET', `/articles/${id}`);
  const idInAddress = (page: Page) => /\/articles\/([0-9a-f]{24})$/.exec(new URL(page.url()).pathname)?.[1] ?? '';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({ ATTACHMENT_MAX_BYTES: String(LIMIT) }), launchChromium()]);
    lea = await inviteAgent(server, { name: 'Lea Lead', email: 'lea@acme.test', userType: 'ORG_ADMIN' });
    session = await openSignedIn(browser, server, lea);
    helpCenterId = (await server.call<{ _id: string }>('POST', '/help-centers', { name: 'Acme Help' }))._id;
    collectionId = (await server.call<{ _id: string }>('POST', '/collections', { helpCenterId, name: 'Getting started' }))._id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('writes an article with a heading, a list, an image and a table, and publishes it: the API holds that HTML', {
    timeout: 60_000,
  }, async () => {
    const { page } = session;
    await page.goto(`/app/knowledge/${helpCenterId}/articles`);
    await page.getByRole('heading', { name: 'Articles', level: 1 }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('link', { name: 'New article' }).click();
    const form = page.getByRole('form', { name: 'New article' });
    await form.getByRole('textbox', { name: 'Title' }).fill('Setting up your account');
    await form.getByRole('button', { name: 'Create article' }).click();
    await body(page).waitFor();
    const id = idInAddress(page);

    await body(page).click();
    await page.getByRole('button', { name: 'Heading', exact: true }).click();
    await page.keyboard.type('Before you start');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('An email address');
    await page.keyboard.press('Enter');
    await page.keyboard.type('A password');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');

    // An image over the limit is refused before anything is sent, with the limit in the message.
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/attachments')) {
        uploads.push(request.url());
      }
    });
    await page.getByRole('button', { name: 'Image', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Insert image' });
    const file = dialog.getByLabel('Image file');
    await file.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(LIMIT + 1, 1) });
    await dialog.getByText(`images can be at most 4 KB (${LIMIT} bytes)`).waitFor();
    await dialog.getByRole('button', { name: 'Insert image' }).click();
    expect(uploads).toEqual([]);
    await file.setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    await dialog.getByRole('textbox', { name: 'Alt text' }).fill('A single pixel');
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Insert image' }).click();
    await body(page).getByRole('img', { name: 'A single pixel' }).waitFor();
    expect(uploads).toHaveLength(1);
    // As a person waits for the caret to come back from the closed dialog before typing on.
    await body(page).and(page.locator(':focus')).waitFor();

    await page.getByRole('button', { name: 'Table' }).click();
    await page.keyboard.type('Plan');
    await saved(page);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();

    const [listed, ...others] = await server.call<ArticleShape[]>(
      'GET',
      `/articles?helpCenterId=${helpCenterId}&state=published`,
    );
    expect(others).toEqual([]);
    expect(listed?._id).toBe(id);
    const html = listed?.publishedVersion?.html ?? '';
    expect(html).toMatch(/<h2>Before you start<\/h2>/);
    expect(html).toMatch(/<ul><li><p>An email address<\/p><\/li><li><p>A password<\/p><\/li><\/ul>/);
    expect(html).toMatch(/<img src="\/v1\/attachments\/[0-9A-Z]{26}" alt="A single pixel" \/>/);
    expect(html).toMatch(/<table>.*<th[^>]*>.*Plan.*<\/th>.*<\/table>/s);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('pasted Google Docs HTML keeps its structure; its script, handlers and javascript: link never run nor stay', {
    timeout: 40_000,
  }, async () => {
    const { page } = session;
    const dialogs: string[] = [];
    page.on('dialog', (shown) => {
      dialogs.push(shown.message());
      void shown.dismiss();
    });
    const created = await server.call<ArticleShape>('POST', '/articles', { title: 'Pasted', collectionId });
    await page.goto(`/app/knowledge/${helpCenterId}/articles/${created._id}`);
    await body(page).click();
    await paste(page, PASTED_HTML);
    await body(page).getByRole('heading', { name: 'Pasted heading' }).waitFor();
    await page.getByRole('status').getByText('Unsaved changes').waitFor();
    await saved(page);
    const stored = (await article(created._id)).contentHtml;
    expect(stored).toContain('<h2>Pasted heading</h2>');
    expect(stored).toMatch(/<li><p><strong>Pasted item<\/strong><\/p><\/li>/);
    expect(stored).toMatch(/<a [^>]*href="https:\/\/docs\.example\.test\/page"[^>]*>Pasted link<\/a>/);
    expect(stored).toContain('<pre><code>npm install pasted</code></pre>');
    expect(stored).toMatch(/<table>.*Cell A.*Cell B.*<\/table>/s);
    expect(stored).not.toMatch(/script|onerror|onclick|javascript:|style=/i);
    await page.reload();
    await body(page).getByRole('heading', { name: 'Pasted heading' }).waitFor();
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(dialogs).toEqual([]);
    // Chromium reports every handler attribute it parses, even in an inert document, as blocked by
    // the console's CSP: those reports aside (and the pasted image's 404), the page logged nothing.
    const blocked = /^Executing inline event handler violates .* The action has been blocked\.$/;
    expect(pageFailures(session).filter((error) => !error.includes('404') && !blocked.test(error))).toEqual([]);
    session.pageErrors.length = 0;
  });

  it('a second editor saving first: the other is told who changed it, compares, and saves over it', {
    timeout: 60_000,
  }, async () => {
    const mia = await inviteAgent(server, { name: 'Mia Writer', email: 'mia@acme.test' });
    const other = await openSignedIn(browser, server, mia);
    const created = await server.call<ArticleShape>('POST', '/articles', {
      title: 'Refunds',
      collectionId,
      contentHtml: '<p>Original text</p>',
    });
    const address = `/app/knowledge/${helpCenterId}/articles/${created._id}`;
    await Promise.all([session.page.goto(address), other.page.goto(address)]);
    await Promise.all([body(session.page).waitFor(), body(other.page).waitFor()]);

    await body(other.page).click();
    await other.page.keyboard.press('End');
    await other.page.keyboard.type(' from Mia');
    await saved(other.page);

    const { page } = session;
    await body(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' from Lea');
    const conflict = page.getByRole('alert').filter({ hasText: 'Mia Writer changed this article' });
    await conflict.waitFor();
    await conflict.getByRole('region', { name: 'Their version' }).getByText('Original text from Mia').waitFor();
    await conflict.getByRole('region', { name: 'Your version' }).getByText('Original text from Lea').waitFor();
    expect((await article(created._id)).contentHtml).toBe('<p>Original text from Mia</p>');
    expect(await accessibilityProblems(page)).toEqual([]);
    await conflict.getByRole('button', { name: 'Save mine over theirs' }).click();
    await saved(page);
    expect(await article(created._id)).toMatchObject({ contentHtml: '<p>Original text from Lea</p>', revision: 3 });
    await other.context.close();
  });

  it('tags: added on an article, renamed and merged on the list; the API follows', { timeout: 60_000 }, async () => {
    const { page } = session;
    const invoices = await server.call<TagShape>('POST', '/tags', { name: 'Invoices' });
    const created = await server.call<ArticleShape>('POST', '/articles', { title: 'Billing basics', collectionId });
    await page.goto(`/app/knowledge/${helpCenterId}/articles/${created._id}`);
    // A refused save: the API's words beside the title, what was typed kept, nothing written.
    const title = page.getByRole('textbox', { name: 'Title' });
    await title.fill('   ');
    await page.getByText(/^title must not be blank/).waitFor();
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await title.inputValue()).toBe('   ');
    expect((await article(created._id)).title).toBe('Billing basics');
    await title.fill('Billing basics');
    await saved(page);
    await page.getByRole('combobox', { name: 'Add a tag' }).fill('Billing');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'Remove tag Billing' }).waitFor();
    await saved(page);
    const billing = (await server.call<TagShape[]>('GET', '/tags')).find((tag) => tag.name === 'Billing');
    expect((await article(created._id)).tags).toEqual([billing?._id]);

    await page.goto(`/app/knowledge/${helpCenterId}/articles`);
    await page.getByRole('button', { name: 'Rename tag Billing' }).click();
    const rename = page.getByRole('form', { name: 'Rename tag Billing' });
    await rename.getByRole('textbox', { name: 'Name' }).fill('invoices');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await rename.getByText('Tag with this name already exists').waitFor();
    await rename.getByRole('textbox', { name: 'Name' }).fill('Payments');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: 'Merge tag Payments' }).click();
    const merge = page.getByRole('form', { name: 'Merge tag Payments' });
    await merge.getByRole('combobox', { name: 'Merge into' }).selectOption({ label: 'Invoices' });
    expect(await accessibilityProblems(page)).toEqual([]);
    await merge.getByRole('button', { name: 'Merge tags' }).click();
    await page.getByRole('button', { name: 'Merge tag Payments' }).waitFor({ state: 'detached' });
    expect((await server.call<TagShape[]>('GET', '/tags')).map((tag) => tag.name)).toEqual(['Invoices']);
    expect((await article(created._id)).tags).toEqual([invoices._id]);

    // The list filters by tag, status and words (drafts included).
    await page.goto(`/app/knowledge/${helpCenterId}/articles?tag=${invoices._id}`);
    await page.getByRole('list', { name: 'Articles' }).getByRole('link', { name: 'Billing basics' }).waitFor();
    expect(await page.getByRole('list', { name: 'Articles' }).getByRole('listitem').count()).toBe(1);
    await page.goto(`/app/knowledge/${helpCenterId}/articles?q=pasted&state=draft`);
    await page.getByRole('list', { name: 'Articles' }).getByRole('link', { name: 'Pasted' }).waitFor();
    expect(pageFailures(session)).toEqual([]);
  });

  it('the list and the editor read well on a phone in dark mode', { timeout: 40_000 }, async () => {
    const phone = await openSignedIn(browser, server, lea, { viewport: { width: 390, height: 844 } });
    await phone.page.emulateMedia({ colorScheme: 'dark' });
    const { page } = phone;
    const [first] = await server.call<ArticleShape[]>('GET', `/articles?helpCenterId=${helpCenterId}`);
    for (const [path, ready] of [
      [`/app/knowledge/${helpCenterId}/articles`, page.getByRole('list', { name: 'Articles' })],
      [`/app/knowledge/${helpCenterId}/articles/${first?._id}`, body(page)],
    ] as const) {
      await page.goto(path);
      await ready.waitFor();
      expect(await accessibilityProblems(page), path).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), path).toBe(true);
    }
    await until(async () => ((await page.getByRole('button', { name: 'Preview' }).isVisible()) ? true : undefined), 'Preview');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByTitle('Preview of the public page').waitFor();
    // The draft's uploaded image shows in the preview (read with the session).
    const pixel = page.frameLocator('iframe[title="Preview of the public page"]').getByRole('img', { name: 'A single pixel' });
    await until(
      async () =>
        (await pixel.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)) === 1 ? true : undefined,
      'the image loaded in the preview',
    );
    expect(phone.foreignRequests).toEqual([]);
    await phone.context.close();
  });
});
