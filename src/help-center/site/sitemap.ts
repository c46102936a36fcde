/**
 * Sitemaps as sitemaps.org describes them: a `<urlset>` of at most 50,000 addresses, or, beyond,
 * a `<sitemapindex>` naming sitemaps of at most that many each. Written as a stream of chunks, so
 * a help center of 100,000 articles never holds its sitemap in memory whole.
 */

/** The protocol's limit of addresses per sitemap. */
export const SITEMAP_URL_LIMIT = 50_000;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for an XML element or attribute; characters XML 1.0 cannot hold at all are dropped. */
export function escapeXml(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? character)
  );
}

function entryXml(tag: 'url' | 'sitemap', entry: SitemapEntry): string {
  const lastmod = entry.lastmod ? `<lastmod>${escapeXml(entry.lastmod)}</lastmod>` : '';
  return `<${tag}><loc>${escapeXml(entry.loc)}</loc>${lastmod}</${tag}>\n`;
}

/** Entries batched into chunks of about this many characters before they are written. */
const CHUNK_CHARS = 64 * 1024;

async function* documentOf(
  root: 'urlset' | 'sitemapindex',
  tag: 'url' | 'sitemap',
  entries: AsyncIterable<SitemapEntry> | Iterable<SitemapEntry>,
): AsyncGenerator<string> {
  let chunk = `${XML_HEAD}<${root} xmlns="${NAMESPACE}">\n`;
  for await (const entry of entries) {
    chunk += entryXml(tag, entry);
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}</${root}>\n`;
}

export function urlsetXml(entries: AsyncIterable<SitemapEntry> | Iterable<SitemapEntry>): AsyncGenerator<string> {
  return documentOf('urlset', 'url', entries);
}

export function sitemapIndexXml(sitemaps: Iterable<SitemapEntry>): AsyncGenerator<string> {
  return documentOf('sitemapindex', 'sitemap', sitemaps);
}
