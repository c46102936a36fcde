import { loadHtmlConverters } from '../../platform/tickets/comment-content.js';

/**
 * Markdown of published articles, for readers that want the text without the page (assistants
 * reading `llms.txt`, the `.md` address of each article). Written with the converters that derive
 * the markdown of stored comments and articles, so it never carries live HTML.
 */
export interface MarkdownWriter {
  /** Text as a markdown paragraph shows it literally: one line, markup characters escaped. */
  text(value: string): string;
  /** Markdown of sanitised HTML. */
  fromHtml(html: string): string;
}

const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

export async function loadMarkdownWriter(): Promise<MarkdownWriter> {
  const converters = await loadHtmlConverters();
  return {
    text: (value) => converters.escapeMarkdown(oneLine(value)),
    fromHtml: (html) => converters.toMarkdown(html),
  };
}

/** `# Title`, the description, then the body: the published version of an article as one markdown document. */
export async function publishedArticleMarkdown(article: { title: string; description: string | null; html: string }) {
  const writer = await loadMarkdownWriter();
  const parts = [`# ${writer.text(article.title)}`];
  if (article.description && oneLine(article.description) !== '') {
    parts.push(writer.text(article.description));
  }
  const body = writer.fromHtml(article.html).trim();
  if (body !== '') {
    parts.push(body);
  }
  return `${parts.join('\n\n')}\n`;
}
