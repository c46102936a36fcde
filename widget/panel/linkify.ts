/** A piece of an answer's text: plain text, or a link to an http(s) address. */
export type TextPiece = string | { href: string; text: string };

// A Markdown link to an http(s) address, `[label](https://…)`, or a bare http(s) address.
const LINK = /\[([^\]\n]{1,300})\]\((https?:\/\/[^\s()]+)\)|https?:\/\/[^\s<>"]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?'"\]]+$/;

/** A bare address without the punctuation that ends its sentence, and without a closing bracket it did not open. */
function trimAddress(address: string): string {
  let trimmed = address.replace(TRAILING_PUNCTUATION, '');
  while (trimmed.endsWith(')') && (trimmed.match(/\(/g)?.length ?? 0) < (trimmed.match(/\)/g)?.length ?? 0)) {
    trimmed = trimmed.slice(0, -1).replace(TRAILING_PUNCTUATION, '');
  }
  return trimmed;
}

/** Whether an address may be a link: http or https only (never `javascript:`, `data:` or a relative path). */
export function isWebAddress(address: string): boolean {
  return /^https?:\/\/[^/?#\s]/i.test(address);
}

/**
 * Splits an answer's plain text into text and links, for rendering as text nodes and `<a>`
 * elements (never as HTML): bare http(s) addresses become links to themselves, and the Markdown
 * links an answer may hold (`[Refunds](https://…)`) links named by their label. Only http and
 * https: any other scheme (`javascript:`, `data:`) stays text.
 */
export function linkify(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let rest = 0;
  const pushText = (value: string) => {
    if (value === '') {
      return;
    }
    const last = pieces[pieces.length - 1];
    if (typeof last === 'string') {
      pieces[pieces.length - 1] = last + value;
    } else {
      pieces.push(value);
    }
  };
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    const [whole, label, markdownHref] = match;
    if (label !== undefined && markdownHref !== undefined) {
      pushText(text.slice(rest, start));
      pieces.push({ href: markdownHref, text: label });
      rest = start + whole.length;
      continue;
    }
    const address = trimAddress(whole);
    if (!isWebAddress(address)) {
      continue;
    }
    pushText(text.slice(rest, start));
    pieces.push({ href: address, text: address });
    rest = start + address.length;
  }
  pushText(text.slice(rest));
  return pieces;
}
