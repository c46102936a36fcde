import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type BenchDialect, DATA_DIR, type DatasetLocation, databaseUrlFor, sqliteFile } from './datasets.js';
import { articleSlugOf, generatedArticle, SEARCH_TERMS } from './help-center-content.js';
import { createOrganization, idsAt, iso, type Organization, progress, resetDatabase } from './seed-data.js';
import { openPostgresSeedDb, openSqliteSeedDb, postgresDatabaseExists, type SeedDb } from './seed-db.js';
import { api, type BenchServer, startSwitchboard, switchboardCli, waitUntilAnswering } from './servers.js';

/**
 * The help-center datasets: one organization with one public help center of 24 collections (6
 * top-level, 3 below each), its articles spread over them, two tags of many on each; 100 and
 * 100,000 published articles. The collections, tags and one article are made through the API,
 * the other articles are copies of that one by direct inserts (rows, memberships, tags and the
 * full-text index rows), each with its own generated title and body (bench/help-center-content.ts).
 */
export const HELP_CENTER_SIZES = [100, 100_000] as const;
export type HelpCenterSize = (typeof HELP_CENTER_SIZES)[number];

/** Bumped when the seed writes something else: a dataset of another version is seeded again. */
const HELP_CENTER_SEED_VERSION = 1;
const TOP_LEVEL_COLLECTIONS = 6;
const CHILDREN_PER_COLLECTION = 3;
/** Slugs of articles kept for the "many articles" probe: evenly spread over the dataset. */
const SPREAD_SLUGS = 10_000;

export interface HelpCenterMeta {
  seedVersion: number;
  dialect: BenchDialect;
  articles: number;
  seededAt: string;
  seedSeconds: number;
  apiKey: string;
  helpCenterSlug: string;
  /** The article of the "one article" probes, in the middle of the dataset. */
  hotArticleSlug: string;
  /** Up to 10,000 article slugs, evenly spread: the "many articles" probes cycle through them. */
  spreadArticleSlugs: string[];
  searchTerms: string[];
}

const sizeLabel = (articles: number) => (articles >= 1000 ? `${articles / 1000}k` : String(articles));

export function helpCenterLocation(dialect: BenchDialect, articles: number, adminUrl: string): DatasetLocation {
  const label = `hc-${sizeLabel(articles)}`;
  const metaFile = join(DATA_DIR, `${dialect}-${label}.meta.json`);
  // `size` names the ticket datasets' shapes; nothing reads it for these (as bench/event-stream.ts).
  if (dialect === 'sqlite') {
    return { dialect, size: '1k', dataDir: join(DATA_DIR, `sqlite-${label}`), metaFile };
  }
  const databaseName = `switchboard_bench_${label.replace('-', '_')}`;
  return {
    dialect,
    size: '1k',
    dataDir: join(DATA_DIR, `postgres-${label}-files`),
    databaseName,
    databaseUrl: databaseUrlFor(adminUrl, databaseName),
    metaFile,
  };
}

/** The dataset's meta when it is seeded (this seed's version, the same size, the database present); else seeds it. */
export async function ensureHelpCenterDataset(
  location: DatasetLocation,
  articles: number,
  options: { adminUrl: string; force: boolean; log: (line: string) => void },
): Promise<HelpCenterMeta> {
  const meta = existsSync(location.metaFile) ? (JSON.parse(readFileSync(location.metaFile, 'utf8')) as HelpCenterMeta) : null;
  const present =
    meta?.seedVersion === HELP_CENTER_SEED_VERSION &&
    meta.articles === articles &&
    (location.databaseName
      ? await postgresDatabaseExists(options.adminUrl, location.databaseName)
      : existsSync(sqliteFile(location)));
  if (meta && present && !options.force) {
    return meta;
  }
  return seedHelpCenter(location, articles, options);
}

interface Made {
  organization: Organization;
  helpCenterSlug: string;
  collectionIds: string[];
  tagIds: string[];
  articleId: string;
  articleUid: number;
}

async function seedHelpCenter(
  location: DatasetLocation,
  articles: number,
  options: { adminUrl: string; log: (line: string) => void },
): Promise<HelpCenterMeta> {
  const started = performance.now();
  options.log(`seeding ${location.dialect} help center with ${articles} articles`);
  await resetDatabase(location, options.adminUrl);
  const organization = await createOrganization(location, 'Acme', 'admin@acme.test');
  const server = await startSwitchboard(location, { cpus: null, logLevel: 'warn', label: `seed-hc-${location.dialect}` });
  let made: Made;
  try {
    await waitUntilAnswering(server, organization.apiKey);
    made = await makeThroughApi(server, organization, Math.max(10, Math.round(articles / 500)));
  } finally {
    await server.stop();
  }
  const db =
    location.dialect === 'sqlite' ? openSqliteSeedDb(sqliteFile(location)) : await openPostgresSeedDb(location.databaseUrl ?? '');
  try {
    await copyArticles(db, made, articles - 1, options.log);
    options.log('  finishing (checkpoint / vacuum analyze)');
    await db.finish();
  } finally {
    await db.close();
  }
  const hot = Math.floor(articles / 2);
  const step = Math.max(1, Math.floor(articles / SPREAD_SLUGS));
  const slugOf = (k: number) => articleSlugOf(made.articleUid + k, generatedArticle(k).title);
  const meta: HelpCenterMeta = {
    seedVersion: HELP_CENTER_SEED_VERSION,
    dialect: location.dialect,
    articles,
    seededAt: new Date().toISOString(),
    seedSeconds: Math.round((performance.now() - started) / 100) / 10,
    apiKey: organization.apiKey,
    helpCenterSlug: made.helpCenterSlug,
    hotArticleSlug: slugOf(hot),
    spreadArticleSlugs: Array.from({ length: Math.ceil(articles / step) }, (_, index) => slugOf(index * step)),
    searchTerms: [...SEARCH_TERMS],
  };
  mkdirSync(dirname(location.metaFile), { recursive: true });
  writeFileSync(location.metaFile, `${JSON.stringify(meta, null, 2)}\n`);
  options.log(`  seeded in ${meta.seedSeconds} s`);
  return meta;
}

interface Data<T> {
  data: T;
}

/** The help center, its collections and tags, and article 0 (published): what the copies start from. */
async function makeThroughApi(server: BenchServer, organization: Organization, tagCount: number): Promise<Made> {
  const key = organization.apiKey;
  const post = <T>(path: string, body: unknown) => api<Data<T>>(server, key, 'POST', path, body).then((answer) => answer.data);
  const helpCenter = await post<{ _id: string; slug: string }>('/help-centers', {
    name: 'Acme Help',
    meta: { description: 'Answers about Acme: accounts, billing, the console and the API.' },
  });
  const collectionIds: string[] = [];
  for (let top = 0; top < TOP_LEVEL_COLLECTIONS; top++) {
    const parent = await post<{ _id: string }>('/collections', {
      helpCenterId: helpCenter._id,
      name: `Topic ${top + 1}`,
      description: `Everything about topic ${top + 1}`,
    });
    collectionIds.push(parent._id);
    for (let child = 0; child < CHILDREN_PER_COLLECTION; child++) {
      const below = await post<{ _id: string }>('/collections', {
        helpCenterId: helpCenter._id,
        parentId: parent._id,
        name: `Topic ${top + 1}.${child + 1}`,
        description: `Details of topic ${top + 1}, part ${child + 1}`,
      });
      collectionIds.push(below._id);
    }
  }
  const tagIds: string[] = [];
  for (let index = 0; index < tagCount; index++) {
    tagIds.push((await post<{ _id: string }>('/tags', { name: `Tag ${index + 1}` }))._id);
  }
  const first = generatedArticle(0);
  const article = await post<{ _id: string; uid: number }>('/articles', {
    title: first.title,
    description: first.description,
    collectionId: collectionIds[0],
    contentHtml: first.html,
    // One tag: the copies' tag rows are copies of this article's only one (PostgreSQL copies every
    // row of the template); its second tag is added after them.
    tags: tagsOf(0, tagIds).slice(0, 1),
  });
  await post(`/articles/${article._id}/publish`, {});
  return {
    organization,
    helpCenterSlug: helpCenter.slug,
    collectionIds,
    tagIds,
    articleId: article._id,
    articleUid: article.uid,
  };
}

/** Article k's two tags. */
function tagsOf(k: number, tagIds: readonly string[]): string[] {
  const first = k % tagIds.length;
  let second = (k * 7 + 3) % tagIds.length;
  if (second === first) {
    second = (second + 1) % tagIds.length;
  }
  return [tagIds[first] as string, tagIds[second] as string];
}

/** Articles 1…count as copies of article 0: rows, memberships, tags and search rows. */
async function copyArticles(db: SeedDb, made: Made, count: number, log: (line: string) => void): Promise<void> {
  if (count <= 0) {
    return;
  }
  const started = performance.now();
  const base = Date.now() - (count + 60) * 1000;
  const clock = idsAt();
  const ids = Array.from({ length: count }, (_, index) => clock.at(base + index * 1000).objectId());
  const k = (index: number) => index + 1;
  // Each column asks for the same article: SQLite's copies ask row by row, so the last one is kept.
  let last: { index: number; article: ReturnType<typeof generatedArticle> } | undefined;
  const article = (index: number) => {
    if (last?.index !== index) {
      last = { index, article: generatedArticle(k(index)) };
    }
    return last.article;
  };
  const at = (index: number) => iso(base + index * 1000);
  await db.copyRow('help_center_articles', 'id', made.articleId, count, {
    id: (index) => ids[index] as string,
    uid: (index) => made.articleUid + k(index),
    title: (index) => article(index).title,
    published_title: (index) => article(index).title,
    slug: (index) => articleSlugOf(made.articleUid + k(index), article(index).title),
    description: (index) => article(index).description,
    published_description: (index) => article(index).description,
    content_html: (index) => article(index).html,
    published_html: (index) => article(index).html,
    published_at: at,
    last_edited_at: at,
    created_at: at,
    updated_at: at,
  });
  progress(log, 'articles', count, started);
  await db.copyRow('help_center_article_collections', 'article_id', made.articleId, count, {
    article_id: (index) => ids[index] as string,
    collection_id: (index) => made.collectionIds[k(index) % made.collectionIds.length] as string,
    added_at: at,
  });
  await db.copyRow('help_center_article_tags', 'article_id', made.articleId, count * 2, {
    article_id: (index) => ids[Math.floor(index / 2)] as string,
    tag_id: (index) => tagsOf(k(Math.floor(index / 2)), made.tagIds)[index % 2] as string,
  });
  await db.copyRow('help_center_article_tags', 'article_id', made.articleId, 1, {
    tag_id: () => tagsOf(0, made.tagIds)[1] as string,
  });
  progress(log, 'memberships and tags', count, started);
  await db.copyRow('help_center_article_search', 'document_id', made.articleId, count, {
    document_id: (index) => ids[index] as string,
    title: (index) => article(index).title,
    body: (index) => article(index).searchBody,
  });
  await db.exec("update help_center_counters set last_value = ? where organization_id = ? and scope = 'article'", [
    made.articleUid + count,
    made.organization.organizationId,
  ]);
  progress(log, 'search rows', count, started);
}

/** Both sizes of one dialect, seeded when missing, migrated to the working tree's schema. */
export type HelpCenterDatasets = Map<HelpCenterSize, { location: DatasetLocation; meta: HelpCenterMeta }>;

export async function ensureHelpCenterDatasets(
  dialect: BenchDialect,
  options: { adminUrl: string; force: boolean; log: (line: string) => void },
): Promise<HelpCenterDatasets> {
  const datasets: HelpCenterDatasets = new Map();
  for (const articles of HELP_CENTER_SIZES) {
    const location = helpCenterLocation(dialect, articles, options.adminUrl);
    const meta = await ensureHelpCenterDataset(location, articles, options);
    options.log(`${dialect} help center ${articles}: migrating (pending migrations of the working tree)`);
    await switchboardCli(location, ['migrate']);
    datasets.set(articles, { location, meta });
  }
  return datasets;
}
