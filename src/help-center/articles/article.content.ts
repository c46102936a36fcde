import { convert as htmlToText } from 'html-to-text';
import { marked } from 'marked';
import TurndownService from 'turndown';
import { AppError } from '../../http/errors.js';
import { sanitizeCommentHtml } from '../../platform/tickets/comment-content.js';

/** An article body in both stored forms; the HTML is always sanitised. */
export interface ArticleContent {
  html: string;
  markdown: string;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });

/**
 * The body from `contentHtml` (sanitised, markdown derived) or `contentMarkdown` (rendered with
 * GitHub-flavoured markdown, then sanitised like any HTML); undefined when neither is given.
 */
export function deriveArticleContent(input: { contentHtml?: string; contentMarkdown?: string }): ArticleContent | undefined {
  if (input.contentHtml !== undefined && input.contentMarkdown !== undefined) {
    throw AppError.invalid('Give the body as contentHtml or contentMarkdown, not both', {
      location: 'body',
      path: ['contentMarkdown'],
      rule: 'oneOf',
    });
  }
  if (input.contentHtml !== undefined) {
    const html = sanitizeCommentHtml(input.contentHtml);
    return { html, markdown: turndown.turndown(html) };
  }
  if (input.contentMarkdown !== undefined) {
    const rendered = marked.parse(input.contentMarkdown, { async: false, gfm: true });
    return { html: sanitizeCommentHtml(rendered), markdown: input.contentMarkdown };
  }
  return undefined;
}

/** The words of an article body, for the search index. */
export function articleText(html: string): string {
  return htmlToText(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
    ],
  }).trim();
}
