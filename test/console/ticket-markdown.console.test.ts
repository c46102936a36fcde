import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.js';

/**
 * The console's sanitiser (web/src/ui/Markdown.tsx) needs a DOM, which vitest's node environment
 * has not: the module is bundled as it is and run in Chromium, on a page of a made-up origin served
 * by the test itself (`page.route`), so same-origin and foreign images can be told apart.
 */
const MARKDOWN_MODULE = fileURLToPath(new URL('../../web/src/ui/Markdown.tsx', import.meta.url));
const ORIGIN = 'http://console.test';

interface Sanitiser {
  sanitizeHtml(html: string): string;
  markdownToSafeHtml(markdown: string): string;
}

describe('markdown and HTML sanitising of the console (Chromium)', () => {
  let browser: Browser;
  let page: Page;

  const sanitize = (html: string) =>
    page.evaluate((input) => (globalThis as unknown as { Sanitiser: Sanitiser }).Sanitiser.sanitizeHtml(input), html);
  const markdown = (text: string) =>
    page.evaluate((input) => (globalThis as unknown as { Sanitiser: Sanitiser }).Sanitiser.markdownToSafeHtml(input), text);

  beforeAll(async () => {
    const [bundle, launched] = await Promise.all([
      build({
        stdin: {
          contents: `export { sanitizeHtml, markdownToSafeHtml } from ${JSON.stringify(MARKDOWN_MODULE)};`,
          resolveDir: process.cwd(),
          loader: 'ts',
        },
        bundle: true,
        format: 'iife',
        globalName: 'Sanitiser',
        jsx: 'automatic',
        platform: 'browser',
        write: false,
        define: { 'process.env.NODE_ENV': '"production"' },
        logLevel: 'silent',
      }),
      launchChromium(),
    ]);
    browser = launched;
    page = await browser.newPage();
    await page.route(`${ORIGIN}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><html><body></body></html>' }),
    );
    await page.goto(`${ORIGIN}/app/`);
    await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
  }, 60_000);
  afterAll(async () => browser?.close());

  it('keeps formatting, lists, code, quotes, tables and links, opened in a new tab without an opener', async () => {
    const html = await markdown(
      '# Title\n\n**bold** _em_ ~~gone~~ `code`\n\n- one\n- two\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[site](https://shop.test/x "Shop")',
    );
    for (const tag of [
      '<h1>',
      '<strong>bold</strong>',
      '<em>em</em>',
      '<del>gone</del>',
      '<code>code</code>',
      '<li>two</li>',
      '<blockquote>',
      '<table>',
      '<td>2</td>',
    ]) {
      expect(html).toContain(tag);
    }
    expect(html).toContain(
      '<a href="https://shop.test/x" title="Shop" target="_blank" rel="noopener noreferrer nofollow">site</a>',
    );
    expect(await markdown('line one\nline two')).toContain('line one<br>line two');
  });

  it('strips scripts, event handlers, javascript: and data: links, frames, forms and styles', async () => {
    const html = await sanitize(
      [
        '<p onclick="alert(1)" style="color:red">text</p>',
        '<script>alert(2)</script>',
        '<img src="/v1/attachments/01J" onerror="alert(3)" onload="alert(4)">',
        '<a href="javascript:alert(5)">js</a>',
        '<a href="JaVaScRiPt&colon;alert(6)">js2</a>',
        '<a href="data:text/html;base64,PHNjcmlwdD4=">data</a>',
        '<iframe src="https://evil.test"></iframe>',
        '<form action="https://evil.test"><input name="x"><button>go</button></form>',
        '<svg><script>alert(7)</script></svg>',
        '<style>body{display:none}</style>',
        '<math><mi xlink:href="javascript:alert(8)">m</mi></math>',
      ].join(''),
    );
    expect(html).not.toMatch(
      /<script|onclick|onerror|onload|javascript:|data:text|<iframe|<form|<input|<button|<svg|<style|<math|style=/i,
    );
    expect(html).toContain('<p>text</p>');
    expect(html).toContain('<img src="/v1/attachments/01J" loading="lazy">');
    expect(html).toContain('>js</a>');
  });

  it('renders raw HTML inside markdown through the same sanitiser', async () => {
    const html = await markdown(
      'Hi <img src=x onerror="alert(1)"> <script>alert(2)</script> [x](javascript:alert(3)) <b onmouseover="alert(4)">b</b>',
    );
    expect(html).not.toMatch(/onerror|<script|javascript:|onmouseover/i);
    expect(html).toContain('<b>b</b>');
  });

  it('loads images of this origin, pasted data: images and blob: previews only; others keep their alt text', async () => {
    const html = await sanitize(
      [
        '<img src="/v1/attachments/A" alt="same">',
        `<img src="${ORIGIN}/v1/attachments/B" alt="absolute">`,
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="pasted">',
        '<img src="https://tracker.test/pixel.gif" alt="tracker">',
        '<img src="//tracker.test/p.gif">',
        '<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="svg">',
      ].join(''),
    );
    expect(html).toContain('<img src="/v1/attachments/A" alt="same" loading="lazy">');
    expect(html).toContain(`<img src="${ORIGIN}/v1/attachments/B" alt="absolute" loading="lazy">`);
    expect(html).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="pasted" loading="lazy">');
    expect(html).toContain('<img alt="tracker">');
    expect(html).toContain('<img alt="An image from another site, not loaded">');
    expect(html).not.toContain('tracker.test');
    expect(html).not.toContain('svg+xml');
  });
});
