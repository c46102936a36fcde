import type { convert } from 'html-to-text';
import type sanitizeHtml from 'sanitize-html';
import type TurndownService from 'turndown';
import { AppError } from '../../lib/errors.js';
import { loadOnce } from '../../lib/load-once.js';
import type { TicketCommentTable } from './ticket.table.js';

/** What a stored comment carries: every form derived from whichever the client sent. */
export interface CommentContent {
  content: string;
  contentHtml: string;
  contentMarkdown: string;
  contentJson: string | null;
}

/** The HTML work behind comments and articles, from libraries loaded on first use (`loadHtmlConverters`). */
export interface HtmlConverters {
  /** Drops scripts, event handlers, `javascript:` and other unsafe URLs; keeps formatting. */
  sanitize(html: string): string;
  /**
   * As `sanitize`, for a help-center article: images only from the organization's uploads
   * (`/v1/attachments/{id}`, which the public site serves for published articles), never from
   * another site that would learn who reads the page.
   */
  sanitizeArticle(html: string): string;
  /** Markdown of sanitised HTML; see `createTurndown` for why it is safe to render. */
  toMarkdown(html: string): string;
  /** Escapes text as turndown escapes the text of HTML. */
  escapeMarkdown(text: string): string;
  toText: typeof convert;
}

/**
 * sanitize-html, turndown and html-to-text, imported for the first comment or article a process
 * writes rather than at every start; later calls get them at once.
 */
export const loadHtmlConverters = loadOnce(async (): Promise<HtmlConverters> => {
  const [{ default: sanitize }, { default: Turndown }, { convert: toText }] = await Promise.all([
    import('sanitize-html'),
    import('turndown'),
    import('html-to-text'),
  ]);
  const options = sanitizeOptions(sanitize);
  const articleOptions: sanitizeHtml.IOptions = {
    ...options,
    exclusiveFilter: (frame) => frame.tag === 'img' && !UPLOADED_IMAGE.test(frame.attribs.src ?? ''),
  };
  const turndown = createTurndown(Turndown);
  return {
    sanitize: (html) => sanitize(html, options),
    sanitizeArticle: (html) => sanitize(html, articleOptions),
    toMarkdown: (html) => turndown.turndown(html),
    escapeMarkdown: (text) => turndown.escape(text),
    toText,
  };
});

/** An image uploaded as an attachment, by the address the console's editor gives it. */
const UPLOADED_IMAGE = /^\/v1\/attachments\/[0-9A-HJKMNP-TV-Z]{26}$/;

function sanitizeOptions(sanitize: typeof sanitizeHtml): sanitizeHtml.IOptions {
  return {
    allowedTags: [...sanitize.defaults.allowedTags, 'img', 'h1', 'h2', 'del', 's', 'u', 'span'],
    allowedAttributes: {
      a: ['href', 'name', 'target', 'title', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      '*': ['class'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    transformTags: { a: sanitize.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
  };
}

/**
 * Writes as entities what a markdown renderer would read as markup rather than text: a `<` that
 * could open a tag, comment or autolink (`&lt;`), and an `&` that could start an entity (`&amp;`).
 * Entities, not backslashes: Markdown.pl and Python-Markdown do not take `\<` as an escape, and
 * would show the backslash before a live tag. A `<` or `&` at the end is escaped too, because the
 * next text node may complete it (`&lt;<span>img …</span>`). `a < b && c > d` stays as written: a
 * `<` before a space is never markup, and a `>` only matters at the start of a line (a quote),
 * where `turndown.escape` writes it as `&gt;`.
 */
function escapeMarkup(text: string): string {
  return text.replace(/&(?=#?\w*(;|$))/g, '&amp;').replace(/<(?!\s)/g, '&lt;');
}

/** Link and image titles sit in double quotes; a malformed link would show them as text, so they are escaped like text. */
function escapeTitle(title: string): string {
  return escapeMarkup(title.replace(/["\\]/g, '\\$&').replace(/(\n+\s*)+/g, '\n'));
}

/**
 * A destination the renderer cannot end early: spaces, control characters, `<`, `>` and `\` are
 * percent-encoded and parentheses escaped. Otherwise a newline in an `href` breaks the link and its
 * title is read as raw HTML.
 */
function escapeDestination(url: string): string {
  return escapeMarkup(url.replace(/[\s\p{Cc}<>\\]/gu, (char) => encodeURIComponent(char)).replace(/[()]/g, '\\$&'));
}

/** The longest run of backticks in `code`, so a fence one longer can never be closed from inside. */
function longestBacktickRun(code: string): number {
  return (code.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0);
}

/** What the rules below read of turndown's DOM nodes (the project compiles without the DOM types). */
interface ConvertedNode {
  nodeName: string;
  firstChild: ConvertedNode | null;
  textContent: string | null;
  getAttribute(name: string): string | null;
}

/**
 * HTML to markdown that shows exactly what the (sanitised) HTML showed: text stays text, so an
 * escaped `&lt;script&gt;` never comes back as a live tag, and attributes (link titles, image alt
 * text, URLs, code languages) cannot break out into markup. Code keeps `<` as is: code spans and
 * fenced blocks show their content literally.
 */
function createTurndown(Turndown: typeof TurndownService): TurndownService {
  const turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Line by line, because turndown's escapes only look at the start of the text: in a `<pre>` every
  // line of a text node starts a markdown line, and "# x" or "> x" there is text, not a heading or
  // quote. Turndown's `\>` becomes `&gt;`, which every renderer shows as text.
  turndown.escape = (text) =>
    text
      .split('\n')
      .map((line) => Turndown.prototype.escape.call(turndown, escapeMarkup(line)).replace(/^\\>/, '&gt;'))
      .join('\n');
  turndown.addRule('safeLink', {
    filter: (node) => node.nodeName === 'A' && Boolean(node.getAttribute('href')),
    replacement: (content, node) => {
      const element = node as ConvertedNode;
      const title = element.getAttribute('title');
      return `[${content}](${escapeDestination(element.getAttribute('href') ?? '')}${title ? ` "${escapeTitle(title)}"` : ''})`;
    },
  });
  turndown.addRule('safeImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as ConvertedNode;
      const src = element.getAttribute('src');
      const title = element.getAttribute('title');
      const alt = turndown.escape((element.getAttribute('alt') ?? '').replace(/\s+/g, ' '));
      return src ? `![${alt}](${escapeDestination(src)}${title ? ` "${escapeTitle(title)}"` : ''})` : '';
    },
  });
  // Turndown's own fence only looks for backticks at the very start of a line, but a closing fence may
  // be indented by up to three spaces: code holding "  ```" would end the block and its rest be markdown.
  turndown.addRule('safeFencedCodeBlock', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName === 'CODE',
    replacement: (_content, node) => {
      const codeElement = (node as ConvertedNode).firstChild;
      const code = codeElement?.textContent ?? '';
      const language = /language-([\w+#.-]+)/.exec(codeElement?.getAttribute('class') ?? '')?.[1] ?? '';
      const fence = '`'.repeat(Math.max(3, longestBacktickRun(code) + 1));
      return `\n\n${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}\n\n`;
    },
  });
  return turndown;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[char]};`);
}

/** Plain text as paragraphs (at blank lines) of lines (at single line breaks). */
function textParagraphs(text: string): string[] {
  return text.split(/\r?\n\s*\r?\n/).filter((paragraph) => paragraph.trim() !== '');
}

/** Paragraphs at blank lines, `<br>` at single line breaks. */
function textToHtml(text: string): string {
  return textParagraphs(text)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * The markdown of plain text, written directly rather than through `textToHtml` and turndown (a
 * DOM parse per comment): the same paragraphs and hard line breaks, blanks collapsed as HTML
 * shows them, and every line escaped by the same rules as text in HTML, so it renders as the text.
 */
function textToMarkdown(converters: HtmlConverters, text: string): string {
  return textParagraphs(text)
    .map((paragraph) =>
      paragraph
        .split(/\r?\n/)
        .map((line) => converters.escapeMarkdown(line.replace(/[ \t\r\n\f]+/g, ' ').trim()))
        .filter((line) => line !== '')
        .join('  \n'),
    )
    .join('\n\n');
}

const BLOCK_TYPES =
  /^(paragraph|heading|blockquote|codeBlock|code_block|listItem|list_item|bulletList|orderedList|horizontalRule|hardBreak|hard_break|quote|list|linebreak)$/i;

/** Text of an editor document (ProseMirror/Tiptap `content`, Slate or Lexical `children`). */
function editorText(node: unknown): string {
  if (Array.isArray(node)) {
    return node.map(editorText).join('');
  }
  if (!node || typeof node !== 'object') {
    return '';
  }
  const record = node as { text?: unknown; content?: unknown; children?: unknown; type?: unknown; root?: unknown };
  if (typeof record.text === 'string') {
    return record.text;
  }
  const inner = editorText(record.content ?? record.children ?? record.root ?? []);
  return typeof record.type === 'string' && BLOCK_TYPES.test(record.type) ? `${inner}\n` : inner;
}

function parseEditorJson(contentJson: string): unknown {
  try {
    return JSON.parse(contentJson);
  } catch {
    throw AppError.invalid('contentJson must be an editor document serialised as a JSON string', {
      location: 'body',
      path: ['contentJson'],
      rule: 'json',
    });
  }
}

/**
 * Derives plain text, sanitised HTML and markdown from `contentHtml` (preferred for HTML),
 * `content` (preferred for text) or `contentJson` (kept as given). Nothing given is a 400.
 */
export async function deriveCommentContent(input: {
  content?: string;
  contentHtml?: string;
  contentJson?: string;
}): Promise<CommentContent> {
  const given = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value : undefined);
  const content = given(input.content);
  const contentHtml = given(input.contentHtml);
  const contentJson = given(input.contentJson);
  if (!content && !contentHtml && !contentJson) {
    throw AppError.invalid('content, contentHtml or contentJson is required', {
      location: 'body',
      path: ['content'],
      rule: 'required',
    });
  }
  const jsonText = contentJson ? editorText(parseEditorJson(contentJson)).trim() : '';
  const converters = await loadHtmlConverters();
  const html = contentHtml ? converters.sanitize(contentHtml) : textToHtml(content ?? jsonText);
  const text = content ?? (contentHtml ? converters.toText(html, { wordwrap: false }).trim() : jsonText);
  // HTML that was all script, styles or other removed markup would be stored as an empty comment.
  if (contentHtml && !content && !contentJson && text === '' && !/<img\b/i.test(html)) {
    throw AppError.invalid('contentHtml has nothing left to show once unsafe HTML is removed', {
      location: 'body',
      path: ['contentHtml'],
      rule: 'empty',
    });
  }
  const markdown = contentHtml ? converters.toMarkdown(html) : textToMarkdown(converters, content ?? jsonText);
  return { content: text, contentHtml: html, contentMarkdown: markdown, contentJson: contentJson ?? null };
}

/** The columns of a comment row that hold its content. */
export function contentColumns(content: CommentContent) {
  return {
    content: content.content,
    content_html: content.contentHtml,
    content_markdown: content.contentMarkdown,
    content_json: content.contentJson,
  };
}

/**
 * A new comment row written by the system (a customer's email or chat message, a transcript, a
 * quiet note): a plain public comment by nobody unless `row` says otherwise, unedited, no files.
 */
export function systemCommentRow(
  row: Pick<TicketCommentTable, 'id' | 'organization_id' | 'ticket_id' | 'created_at'> &
    ReturnType<typeof contentColumns> &
    Partial<TicketCommentTable>,
): TicketCommentTable {
  return {
    parent_comment_id: null,
    thread_name: null,
    comment_visibility: 'public',
    comment_type: 'comment',
    is_edited: false,
    is_pinned: false,
    source_email_id: null,
    metadata: null,
    author_id: null,
    author_agent_id: null,
    customer_contact_id: null,
    impersonated_user_email: null,
    impersonated_user_name: null,
    impersonated_user_avatar: null,
    attachment_ids: '[]',
    dedupe_key: null,
    dedupe_fingerprint: null,
    updated_at: row.created_at,
    deleted_at: null,
    ...row,
  };
}
