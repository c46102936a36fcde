/** Slack's three control characters, escaped as its message formatting asks. */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A Markdown backslash escape (`\*`), held as a private-use character while the marks are converted. */
const ESCAPED = /\\([\\`*_{}[\]()#+\-.!~|])/g;
const HELD = /\uE000(.)/gu;

/**
 * A comment's plain text or Markdown as Slack mrkdwn: `&<>` escaped, then links, bold, strikethrough
 * and headings in Slack's own marks; the rest (lists, `code`, _italics_, quotes) reads the same.
 * Markdown's backslash escapes stand for the character itself.
 */
export function toSlackMrkdwn(markdown: string): string {
  return escapeSlackText(markdown.replace(ESCAPED, '\uE000$1'))
    .replace(
      /\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g,
      (_, label: string, url: string) => `<${url}|${label.replace(/\|/g, '/')}>`,
    )
    .replace(/\*\*([^*\n]+)\*\*/g, '*$1*')
    .replace(/__([^_\n]+)__/g, '*$1*')
    .replace(/~~([^~\n]+)~~/g, '~$1~')
    .replace(/^#{1,6}[ \t]+(.+)$/gm, '*$1*')
    .replace(HELD, '$1');
}
