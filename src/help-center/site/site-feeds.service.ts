import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { loadMarkdownWriter, type MarkdownWriter } from '../articles/article.markdown.js';
import {
  countVisibleArticles,
  findVisibleArticle,
  listCollectionArticles,
  type PublishedArticle,
  visibleArticleAddresses,
} from '../articles/published-article.service.js';
import type { CollectionTree } from '../collections/collection.tree.js';
import { type SiteCollection, visibleCollectionTree } from '../collections/published-collection.service.js';
import type { Found, SiteHelpCenter, SiteViewer } from './site.service.js';
import { numberOfSegment, type SiteAddress, sitePaths } from './site-address.js';
import type { SitemapEntry } from './sitemap.js';

/**
 * What search engines and assistants read of a help center besides its pages: the sitemap, the
 * `llms.txt` index and each article as Markdown. Sitemap and `llms.txt` hold only what anyone may
 * read, whoever asks; the caller refuses them for a protected help center.
 */

const publicTree = (db: Kysely<DB>, helpCenter: SiteHelpCenter) =>
  visibleCollectionTree(db, helpCenter.organizationId, helpCenter.id, { includeProtected: false });

export type PublicSitemap =
  | { kind: 'urlset'; entries: AsyncIterable<SitemapEntry> }
  | { kind: 'index'; sitemaps: SitemapEntry[] }
  | { kind: 'missing' };

/**
 * The help center's sitemap at `address` (its canonical one), in the order home, collections,
 * articles by number: one `urlset` when there are at most `limit` addresses, else an index of
 * sitemaps of `limit` each. `page` asks for one of those; undefined for the sitemap itself.
 */
export async function publicSitemap(
  db: Kysely<DB>,
  helpCenter: SiteHelpCenter,
  address: SiteAddress,
  request: { limit: number; page?: number },
): Promise<PublicSitemap> {
  const { limit, page } = request;
  const tree = await publicTree(db, helpCenter);
  const collections = tree.listingOrder();
  const collectionIds = collections.map((collection) => collection.id);
  const fixed: SitemapEntry[] = [
    { loc: sitePaths.absolute(address, sitePaths.home(address)), lastmod: helpCenter.updatedAt },
    ...collections.map((collection) => ({
      loc: sitePaths.absolute(address, sitePaths.collection(address, collection)),
      lastmod: collection.updatedAt,
    })),
  ];
  const total = fixed.length + (await countVisibleArticles(db, helpCenter.organizationId, collectionIds));
  const pages = Math.ceil(total / limit);
  if (page === undefined && pages > 1) {
    const sitemaps = Array.from({ length: pages }, (_, index) => ({
      loc: sitePaths.absolute(address, sitePaths.sitemap(address, index + 1)),
      lastmod: null,
    }));
    return { kind: 'index', sitemaps };
  }
  if (page !== undefined && (pages <= 1 || page > pages)) {
    return { kind: 'missing' };
  }
  const start = ((page ?? 1) - 1) * limit;
  const range = { start, end: Math.min(start + limit, total) };
  return { kind: 'urlset', entries: sitemapEntries(db, helpCenter, address, { fixed, collectionIds }, range) };
}

async function* sitemapEntries(
  db: Kysely<DB>,
  helpCenter: SiteHelpCenter,
  address: SiteAddress,
  source: { fixed: SitemapEntry[]; collectionIds: string[] },
  range: { start: number; end: number },
): AsyncGenerator<SitemapEntry> {
  const { fixed } = source;
  yield* fixed.slice(range.start, range.end);
  const offset = Math.max(0, range.start - fixed.length);
  const count = range.end - Math.max(range.start, fixed.length);
  if (count <= 0) {
    return;
  }
  const articles = visibleArticleAddresses(db, helpCenter.organizationId, source.collectionIds, { offset, count });
  for await (const article of articles) {
    yield { loc: sitePaths.absolute(address, sitePaths.article(address, article)), lastmod: article.publishedAt || null };
  }
}

/** Articles read per query for `llms.txt`, and the size of the chunks it is written in. */
const LLMS_RUN = 500;
const LLMS_CHUNK_CHARS = 64 * 1024;

/** The collection and the ones above it, top first, as a section title. */
function sectionTitle(tree: CollectionTree<SiteCollection>, collection: SiteCollection): string {
  const names: string[] = [];
  for (let node: SiteCollection | undefined = collection; node; node = node.parent_id ? tree.get(node.parent_id) : undefined) {
    names.unshift(node.name);
  }
  return names.join(' / ');
}

/** A link destination a Markdown reader cannot end early (our URLs hold no spaces; parentheses they may). */
const markdownUrl = (url: string) => url.replace(/[()<>\s]/g, (character) => encodeURIComponent(character));

/**
 * The help center in the llms.txt format (https://llmstxt.org): `# Name`, `> description`, then
 * a `## Collection` section per collection with its public articles as links to their Markdown.
 */
export async function* publicLlmsText(db: Kysely<DB>, helpCenter: SiteHelpCenter, address: SiteAddress): AsyncGenerator<string> {
  const [tree, writer] = await Promise.all([publicTree(db, helpCenter), loadMarkdownWriter()]);
  let head = `# ${writer.text(helpCenter.name)}\n`;
  const description = helpCenter.meta.description;
  if (description && description.trim() !== '') {
    head += `\n> ${writer.text(description)}\n`;
  }
  yield head;
  for (const collection of tree.listingOrder()) {
    // A collection without public articles of its own gets no section.
    let chunk = '';
    let listed = false;
    for await (const line of articleLines(db, helpCenter, address, collection, writer)) {
      if (!listed) {
        chunk = `\n## ${writer.text(sectionTitle(tree, collection))}\n\n`;
        listed = true;
      }
      chunk += line;
      if (chunk.length >= LLMS_CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk !== '') {
      yield chunk;
    }
  }
}

async function* articleLines(
  db: Kysely<DB>,
  helpCenter: SiteHelpCenter,
  address: SiteAddress,
  collection: SiteCollection,
  writer: MarkdownWriter,
): AsyncGenerator<string> {
  let afterUid: number | undefined;
  for (;;) {
    const run = await listCollectionArticles(db, helpCenter.organizationId, collection.id, { afterUid, limit: LLMS_RUN });
    for (const article of run) {
      const url = markdownUrl(sitePaths.absolute(address, sitePaths.markdown(address, article)));
      const description = article.description?.trim() ? `: ${writer.text(article.description)}` : '';
      yield `- [${writer.text(article.title)}](${url})${description}\n`;
    }
    if (run.length < LLMS_RUN) {
      return;
    }
    afterUid = run.at(-1)?.uid;
  }
}

/** The article at `segment` if the viewer may read it, for its Markdown; `moved` after a rename. */
export async function markdownArticle(
  db: Kysely<DB>,
  helpCenter: SiteHelpCenter,
  viewer: SiteViewer,
  segment: string,
): Promise<Found<PublishedArticle>> {
  const uid = numberOfSegment(segment);
  if (uid === undefined) {
    return { kind: 'missing' };
  }
  const tree = await visibleCollectionTree(db, helpCenter.organizationId, helpCenter.id, {
    includeProtected: viewer.contact !== null,
  });
  const visibleIds = tree.listingOrder().map((collection) => collection.id);
  const article = await findVisibleArticle(db, helpCenter.organizationId, uid, visibleIds);
  if (!article) {
    return { kind: 'missing' };
  }
  return article.slug === segment ? { kind: 'page', page: article } : { kind: 'moved', to: article };
}
