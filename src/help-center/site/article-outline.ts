import { DomUtils, parseDocument } from 'htmlparser2';

/** A heading of an article, for its table of contents. */
export interface OutlineEntry {
  id: string;
  level: 2 | 3;
  text: string;
}

/** Ids the page itself uses: a heading never takes them, so its anchor cannot hijack the skip link. */
const RESERVED_IDS = new Set(['main', 'search', 'toc', 'feedback', 'related', 'content']);

const slugOf = (text: string) =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'section';

/**
 * The article's stored (sanitised) HTML with an id on each `h2` and `h3`, and the table of
 * contents those ids make. The sanitiser drops authors' ids, so ids come from the heading text:
 * stable across renders, unique within the article.
 */
export function outlineArticle(html: string): { html: string; outline: OutlineEntry[] } {
  const document = parseDocument(html);
  // The page's title is its one h1: a heading of level 1 in the body becomes a section heading.
  for (const heading of DomUtils.findAll((element) => element.name === 'h1', document.children)) {
    heading.name = 'h2';
  }
  const headings = DomUtils.findAll((element) => element.name === 'h2' || element.name === 'h3', document.children);
  const taken = new Set(RESERVED_IDS);
  const outline: OutlineEntry[] = [];
  for (const heading of headings) {
    const text = DomUtils.textContent(heading).replace(/\s+/g, ' ').trim();
    if (text === '') {
      continue;
    }
    const base = slugOf(text);
    let id = base;
    for (let suffix = 2; taken.has(id); suffix++) {
      id = `${base}-${suffix}`;
    }
    taken.add(id);
    heading.attribs.id = id;
    outline.push({ id, level: heading.name === 'h2' ? 2 : 3, text });
  }
  return { html: DomUtils.getOuterHTML(document.children), outline };
}
