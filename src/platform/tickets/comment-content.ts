import { convert as htmlToText } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';
import TurndownService from 'turndown';
import { AppError } from '../../http/errors.js';

/** What a stored comment carries: every form derived from whichever the client sent. */
export interface CommentContent {
  content: string;
  contentHtml: string;
  contentMarkdown: string;
  contentJson: string | null;
}

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2', 'del', 's', 'u', 'span'],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['class'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
};

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });

/** Drops scripts, event handlers, `javascript:` and other unsafe URLs; keeps formatting. */
export function sanitizeCommentHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[char]};`);
}

/** Paragraphs at blank lines, `<br>` at single line breaks. */
function textToHtml(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
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
export function deriveCommentContent(input: { content?: string; contentHtml?: string; contentJson?: string }): CommentContent {
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
  let html: string;
  if (contentHtml) {
    html = sanitizeCommentHtml(contentHtml);
  } else {
    html = textToHtml(content ?? jsonText);
  }
  const text = content ?? (contentHtml ? htmlToText(html, { wordwrap: false }).trim() : jsonText);
  return { content: text, contentHtml: html, contentMarkdown: turndown.turndown(html), contentJson: contentJson ?? null };
}
