import { type Expression, type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from './database.js';
import { dialectOf } from './dialect.js';

/**
 * Full-text search behind one interface. Each index is a table of `(document_id, organization_id,
 * title, body)` rows, created by its migration: an FTS5 virtual table on SQLite (Porter stemming,
 * ranked with `bm25`, excerpts by `snippet()`), a table with a generated, weighted `tsvector` column
 * under a GIN index on PostgreSQL (English stemming, `ts_rank`, `ts_headline`). Callers write and
 * remove entries in their own transaction and read ranked hits with an HTML-safe excerpt.
 */
export type FullTextIndex = 'help_center_article_search';

type Db = Kysely<DB> | Transaction<DB>;

export interface FullTextEntry {
  documentId: string;
  organizationId: string;
  title: string;
  body: string;
}

export interface FullTextHit {
  documentId: string;
  /** A passage of the body, HTML-escaped, with the matched words wrapped in `<mark>`. */
  excerpt: string;
}

export interface FullTextQuery {
  organizationId: string;
  /** Words to find, from `searchTerms`; every one must match (after stemming). */
  terms: string[];
  limit: number;
  /** Only documents whose id this subquery returns (e.g. published articles of one help center). */
  within?: Expression<unknown>;
}

// Control characters mark the matches inside the database; they cannot come from the indexed text
// (`clean` strips them), so the excerpt is escaped first and the markers turned into tags after.
const START = '\u0002';
const STOP = '\u0003';
const EXCERPT_WORDS = 24;

// biome-ignore lint/suspicious/noControlCharactersInRegex: removes exactly the marker characters
const clean = (text: string) => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ' ');

/** The words of a user's query: letters and digits only, so no query syntax reaches either engine. */
export function searchTerms(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 32);
}

/** Adds or replaces the document's entry. */
export async function writeFullTextEntry(db: Db, index: FullTextIndex, entry: FullTextEntry): Promise<void> {
  await removeFullTextEntry(db, index, entry.documentId);
  await db
    .insertInto(index)
    .values({
      document_id: entry.documentId,
      organization_id: entry.organizationId,
      title: clean(entry.title),
      body: clean(entry.body),
    })
    .execute();
}

export async function removeFullTextEntry(db: Db, index: FullTextIndex, documentId: string): Promise<void> {
  await db.deleteFrom(index).where('document_id', '=', documentId).execute();
}

/** Best matches first: title words weigh more than body words. */
export async function searchFullText(db: Db, index: FullTextIndex, query: FullTextQuery): Promise<FullTextHit[]> {
  if (query.terms.length === 0) {
    return [];
  }
  const table = sql.table(index);
  const within = query.within ? sql`and document_id in (${query.within})` : sql``;
  let rows: { document_id: string; excerpt: string | null }[];
  if (dialectOf(db) === 'postgres') {
    const options = `StartSel=${START}, StopSel=${STOP}, MaxWords=${EXCERPT_WORDS}, MinWords=8, MaxFragments=1, FragmentDelimiter=" … "`;
    const result = await sql<{ document_id: string; excerpt: string | null }>`
      select document_id, ts_headline('english', body, matched, ${options}) as excerpt
      from ${table}, plainto_tsquery('english', ${query.terms.join(' ')}) as matched
      where document @@ matched and organization_id = ${query.organizationId} ${within}
      order by ts_rank(document, matched) desc, document_id
      limit ${query.limit}`.execute(db);
    rows = result.rows;
  } else {
    // Each term quoted: FTS5 reads it as a plain word, never as an operator or column filter.
    const match = query.terms.map((term) => `"${term}"`).join(' ');
    const result = await sql<{ document_id: string; excerpt: string | null }>`
      select document_id, snippet(${table}, 3, ${START}, ${STOP}, '…', ${EXCERPT_WORDS}) as excerpt
      from ${table}
      where ${table} match ${match} and organization_id = ${query.organizationId} ${within}
      order by bm25(${table}, 0, 0, 5.0, 1.0), document_id
      limit ${query.limit}`.execute(db);
    rows = result.rows;
  }
  return rows.map((row) => ({ documentId: row.document_id, excerpt: renderExcerpt(row.excerpt ?? '') }));
}

function renderExcerpt(marked: string): string {
  const escaped = marked.replace(
    /[&<>"']/g,
    (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[char]};`,
  );
  return escaped.replaceAll(START, '<mark>').replaceAll(STOP, '</mark>');
}
