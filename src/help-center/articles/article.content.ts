import { AppError } from '../../lib/errors.js';
import { loadOnce } from '../../lib/load-once.js';
import { loadHtmlConverters } from '../../platform/tickets/comment-content.js';

/** marked, imported for the first article written in markdown rather than at every start. */
const loadMarked = loadOnce(async () => (await import('marked')).marked);

/** An article body in both stored forms; the HTML is always sanitised. */
export interface ArticleContent {
  html: string;
  markdown: string;
}

/**
 * The body from `contentHtml` (sanitised, markdown derived) or `contentMarkdown` (rendered with
 * GitHub-flavoured markdown, then sanitised like any HTML); undefined when neither is given.
 *
 * Markdown the author wrote is their source and is stored as written, raw HTML included, as
 * GitHub and Discourse keep it: escaping it would hand an editor back text they never typed and
 * turn harmless inline HTML (`<br>`, `<sup>`) into visible tags. What is shown is the HTML, and
 * that is always rendered from the markdown and then sanitised. Markdown derived from HTML is
 * different: it must show what the sanitised HTML showed, so it never holds live HTML.
 */
export async function deriveArticleContent(input: {
  contentHtml?: string;
  contentMarkdown?: string;
}): Promise<ArticleContent | undefined> {
  if (input.contentHtml !== undefined && input.contentMarkdown !== undefined) {
    throw AppError.invalid('Give the body as contentHtml or contentMarkdown, not both', {
      location: 'body',
      path: ['contentMarkdown'],
      rule: 'oneOf',
    });
  }
  if (input.contentHtml !== undefined) {
    const converters = await loadHtmlConverters();
    const html = converters.sanitizeArticle(input.contentHtml);
    return { html, markdown: converters.toMarkdown(html) };
  }
  if (input.contentMarkdown !== undefined) {
    const [converters, marked] = await Promise.all([loadHtmlConverters(), loadMarked()]);
    const rendered = marked.parse(input.contentMarkdown, { async: false, gfm: true });
    return { html: converters.sanitizeArticle(rendered), markdown: input.contentMarkdown };
  }
  return undefined;
}

/** The words of an article body, for the search index. */
export async function articleText(html: string): Promise<string> {
  const { toText } = await loadHtmlConverters();
  return toText(html, {
    wordwrap: false,
    // Excerpts of search results show this text: headings as written (not in capitals), list items
    // without a bullet character.
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
      { selector: 'ul', options: { itemPrefix: ' ' } },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ],
  }).trim();
}
