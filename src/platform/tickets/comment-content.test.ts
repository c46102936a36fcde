import { describe, expect, it } from 'vitest';
import { liveMarkdown, liveMarkdownWithoutBackslashEscapes, renderMarkdown, shownText } from '../../../test/markup.js';
import { deriveCommentContent, loadHtmlConverters } from './comment-content.js';

describe('htmlToMarkdown', () => {
  it.each([
    ['escaped tags stay text', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>', '&lt;script>alert(1)&lt;/script>'],
    ['a tag split across elements', '<p>&lt;<span>img src=x</span>&gt;</p>', '&lt;img src=x&gt;'],
    ['escaped entities stay text', '<p>&amp;lt;b&amp;gt;</p>', '&amp;lt;b&amp;gt;'],
    ['a backslash before a tag', '<p>\\&lt;b&gt;</p>', '\\\\&lt;b>'],
    ['an ampersand that starts no entity', '<p>AT&amp;T and a &amp;&amp; b</p>', 'AT&T and a && b'],
    ['comparisons', '<p>a &lt; b &amp;&amp; c &gt; d, 1 &lt; 2</p>', 'a < b && c > d, 1 < 2'],
    ['an autolink typed as text', '<p>&lt;https://x.test&gt;</p>', '&lt;https://x.test>'],
    ['a quote typed as text', '<p>&gt; not a quote</p>', '&gt; not a quote'],
    ['markdown lines in preformatted text', '<pre># one\n&gt; two\n- three</pre>', '\\# one\n&gt; two\n\\- three'],
    ['parentheses in a link address', '<a href="https://x.test/Foo_(bar)">wiki</a>', '[wiki](https://x.test/Foo_\\(bar\\))'],
    [
      'a newline in a link address and a tag in its title',
      '<a href="https://x.test/a&#10;b" title="&lt;b&gt; &quot;q&quot;">y</a>',
      '[y](https://x.test/a%0Ab "&lt;b> \\"q\\"")',
    ],
    [
      'a tag in an image alt text',
      '<img src="https://x.test/i b.png" alt="&lt;img src=x&gt;">',
      '![&lt;img src=x>](https://x.test/i%20b.png)',
    ],
    ['code keeps its characters', '<p><code>&lt;b&gt; &amp;</code></p>', '`<b> &`'],
    [
      'a fence longer than any backtick run in the code',
      '<pre><code class="language-ts">a\n  ```\n&lt;b&gt;</code></pre>',
      '````ts\na\n  ```\n<b>\n````',
    ],
    ['a code language that is not a word', '<pre><code class="language-`&lt;b&gt;">x</code></pre>', '```\nx\n```'],
  ])('%s', async (_, html, markdown) => {
    const { sanitize, toMarkdown } = await loadHtmlConverters();
    const derived = toMarkdown(sanitize(html));
    expect(derived).toBe(markdown);
    expect(liveMarkdown(derived)).toEqual([]);
    expect(liveMarkdownWithoutBackslashEscapes(derived)).toEqual([]);
    // No backslash escape of `<` or `&` (an odd run of backslashes before one).
    expect(derived).not.toMatch(/(?<!\\)(\\\\)*\\[<&]/);
  });
});

describe('deriveCommentContent', () => {
  it.each([
    'a < b && c > d',
    '1 < 2',
    '<script>alert(1)</script>',
    '&lt;img src=x onerror=alert(1)&gt;',
    '[x](javascript:alert(1))',
    '*not emphasis* and `not code`',
    '<div>\n<b>html block</b>\n</div>',
  ])('text %j reads the same in its HTML and its markdown', async (content) => {
    const derived = await deriveCommentContent({ content });
    expect(liveMarkdown(derived.contentMarkdown)).toEqual([]);
    expect(shownText(renderMarkdown(derived.contentMarkdown))).toBe(shownText(derived.contentHtml));
    expect(shownText(derived.contentHtml)).toBe(content);
  });
});

describe('markdown of plain text, derived without a DOM', () => {
  /** Seeded random texts over the characters markdown and HTML treat specially. */
  function texts(count: number): string[] {
    const alphabet = [
      'a',
      'é',
      ' ',
      '\t',
      '\n',
      '\r\n',
      '<',
      '>',
      '&',
      '*',
      '_',
      '#',
      '-',
      '+',
      '=',
      '1',
      '.',
      ')',
      '`',
      '[',
      ']',
      '(',
      '\\',
      '!',
      '|',
      '~',
      ';',
    ];
    let state = 42;
    const random = () => {
      state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
      return state / 0x7fffffff;
    };
    return Array.from({ length: count }, () =>
      Array.from({ length: 1 + Math.floor(random() * 24) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
    ).filter((text) => text.trim() !== '');
  }

  it('is what the HTML of the text converts to (but for a leading empty line), for 5,000 seeded texts', async () => {
    const { toMarkdown } = await loadHtmlConverters();
    for (const text of texts(5_000)) {
      const derived = await deriveCommentContent({ content: text });
      expect(derived.contentMarkdown, JSON.stringify(text)).toBe(toMarkdown(derived.contentHtml).replace(/^( {2}\n)+/, ''));
    }
  });

  it('keeps paragraphs and line breaks, and escapes what would be markup', async () => {
    expect((await deriveCommentContent({ content: 'Hi  there,\n# not a heading\n\n\n<b>not bold</b>' })).contentMarkdown).toBe(
      'Hi there,  \n\\# not a heading\n\n&lt;b>not bold&lt;/b>',
    );
  });
});
