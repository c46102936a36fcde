import { convert as htmlToText } from 'html-to-text';
import { marked } from 'marked';

/**
 * What a markdown renderer would act on rather than show: raw HTML (tags, comments, processing
 * instructions, HTML blocks) and links or images to a script URL. Empty when the markdown is safe
 * to render with a renderer that passes raw HTML through, as `marked` does by default.
 */
export function liveMarkdown(markdown: string): string[] {
  const live: string[] = [];
  marked.walkTokens(marked.lexer(markdown, { gfm: true }), (token) => {
    if (token.type === 'html') {
      live.push(token.raw);
    }
    if ((token.type === 'link' || token.type === 'image') && /^\s*(javascript|vbscript|data:text\/html)/i.test(token.href)) {
      live.push(token.raw);
    }
  });
  return live;
}

/**
 * `liveMarkdown` as a renderer that knows no backslash escape for `<`, `>` or `&` reads it
 * (Markdown.pl, Python-Markdown): it shows the backslash, and what follows acts as markup.
 */
export function liveMarkdownWithoutBackslashEscapes(markdown: string): string[] {
  return liveMarkdown(markdown.replace(/(?<!\\)((?:\\\\)*)\\([<>&])/g, '$1\\\\$2'));
}

/**
 * Tags of `html` that run something: scripts and embeds, event handlers, script URLs. Text in
 * HTML has its `<` escaped, so every `<` followed by a letter opens a real tag.
 */
export function liveHtml(html: string): string[] {
  return (html.match(/<\/?[a-z][^>]*>?/gi) ?? []).filter((tag) => {
    if (/^<\/?(script|iframe|object|embed|style)\b/i.test(tag)) {
      return true;
    }
    return [...tag.matchAll(/\s([^\s=/>]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/g)].some(([, name = '', value = '']) => {
      const unquoted = value.replace(/^["']|["']$/g, '').trim();
      return /^on/i.test(name) || (/^(href|src)$/i.test(name) && /^(javascript|vbscript):/i.test(unquoted));
    });
  });
}

/** Markdown rendered with GitHub-flavoured markdown, raw HTML passed through. */
export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false, gfm: true });
}

/**
 * The text a reader sees in `html`: what must not change between a body's HTML and its markdown.
 * Link targets are left out, because GitHub-flavoured markdown links bare addresses in text, and
 * images, whose addresses markdown may percent-encode.
 */
export function shownText(html: string): string {
  return htmlToText(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
    ],
  }).trim();
}
