import { type Expression, type Kysely, sql, type Transaction } from 'kysely';
import type { SearchAtom, SearchQuery } from '../lib/search-query.js';
import type { DB } from './database.js';
import { dialectOf, readBoolean } from './dialect.js';

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
  /** What to find, read by `parseSearchQuery` (words, phrases, prefixes, OR, exclusions). */
  search: SearchQuery;
  limit: number;
  /** Hits to skip, for a page after the first. */
  offset?: number;
  /** Only documents whose id this subquery returns (e.g. published articles of one help center). */
  within?: Expression<unknown>;
}

// Control characters mark the matches inside the database; they cannot come from the indexed text
// (`clean` strips them), so the excerpt is escaped first and the markers turned into tags after.
const START = '\u0002';
const STOP = '\u0003';
const EXCERPT_WORDS = 24;
/** "…", bound rather than written into the SQL, so that the bundle stays Latin-1 (scripts/bundle-server.ts). */
const ELLIPSIS = '\u2026';

// biome-ignore lint/suspicious/noControlCharactersInRegex: removes exactly the marker characters
const clean = (text: string) => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ' ');

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
  const table = sql.table(index);
  const within = query.within ? sql`and document_id in (${query.within})` : sql``;
  let rows: { document_id: string; excerpt: string | null }[];
  if (dialectOf(db) === 'postgres') {
    const options = `StartSel=${START}, StopSel=${STOP}, MaxWords=${EXCERPT_WORDS}, MinWords=8, MaxFragments=1, FragmentDelimiter=" … "`;
    const result = await sql<{ document_id: string; excerpt: string | null }>`
      select document_id, ts_headline('english', body, matched, ${options}) as excerpt
      from ${table}, (select ${tsqueryOf(query.search)} as matched) search_query
      where document @@ matched and organization_id = ${query.organizationId} ${within}
      order by ts_rank(document, matched) desc, document_id
      limit ${query.limit} offset ${query.offset ?? 0}`.execute(db);
    rows = result.rows;
  } else {
    const match = fts5Query(query.search);
    const result = await sql<{ document_id: string; excerpt: string | null }>`
      select document_id, snippet(${table}, 3, ${START}, ${STOP}, ${ELLIPSIS}, ${EXCERPT_WORDS}) as excerpt
      from ${table}
      where ${table} match ${match} and organization_id = ${query.organizationId} ${within}
      order by bm25(${table}, 0, 0, 5.0, 1.0), document_id
      limit ${query.limit} offset ${query.offset ?? 0}`.execute(db);
    rows = result.rows;
  }
  return rows.map((row) => ({ documentId: row.document_id, excerpt: renderExcerpt(row.excerpt ?? '') }));
}

export interface ScopedFullTextQuery extends Omit<FullTextQuery, 'within'> {
  /**
   * Which of these documents (the organization's, best first) may be found. Asked of the best
   * matches a window at a time, so a scope of 100,000 documents is never read whole: with
   * `within`, SQLite built the whole scope for every search (1 s at 100,000 articles).
   */
  keep: (documentIds: readonly string[]) => Promise<ReadonlySet<string>>;
}

interface Ranked {
  /** SQLite: the FTS5 rowid, for the excerpts; PostgreSQL: unused. */
  rowid: number;
  documentId: string;
}

/**
 * Best matches first, like `searchFullText`, among the documents `keep` keeps. The ranking reads
 * nothing but the index (SQLite reads each match's stored columns only for the window taken, as
 * reading them for every match cost more than ranking them), and excerpts are made for the page only.
 */
export async function searchFullTextWithin(db: Db, index: FullTextIndex, query: ScopedFullTextQuery): Promise<FullTextHit[]> {
  const offset = query.offset ?? 0;
  const wanted = offset + query.limit;
  const kept: Ranked[] = [];
  let seen = 0;
  for (let window = Math.max(2 * wanted, 50); ; window *= 4) {
    const { ranked, read } = await rankFullText(db, index, query, { offset: seen, limit: window - seen });
    const keep = await query.keep(ranked.map((hit) => hit.documentId));
    kept.push(...ranked.filter((hit) => keep.has(hit.documentId)));
    const exhausted = read < window - seen;
    seen = window;
    if (kept.length >= wanted || exhausted) {
      break;
    }
  }
  const page = kept.slice(offset, wanted);
  const excerpts = await excerptsOf(db, index, query.search, page);
  return page.map((hit) => ({ documentId: hit.documentId, excerpt: renderExcerpt(excerpts.get(hit.documentId) ?? '') }));
}

/** How many of the newest matches (and of the newest title matches) a site search ranks, on SQLite. */
export const RANKED_CANDIDATES = 1000;

async function rankFullText(
  db: Db,
  index: FullTextIndex,
  query: Pick<FullTextQuery, 'organizationId' | 'search'>,
  window: { offset: number; limit: number },
): Promise<{ ranked: Ranked[]; read: number }> {
  const table = sql.table(index);
  if (dialectOf(db) === 'postgres') {
    const result = await sql<{ document_id: string }>`
      select document_id
      from ${table}, (select ${tsqueryOf(query.search)} as matched) search_query
      where document @@ matched and organization_id = ${query.organizationId}
      order by ts_rank(document, matched) desc, document_id
      limit ${window.limit} offset ${window.offset}`.execute(db);
    return { ranked: result.rows.map((row) => ({ rowid: 0, documentId: row.document_id })), read: result.rows.length };
  }
  // Ranked by rowid alone (in the index); the stored columns read for the window's rows only. Only
  // the newest RANKED_CANDIDATES matches, and the newest as many whose title matches (scored by their
  // title), are ranked: bm25 costs a little for every match it scores, so a word in a tenth of
  // 100,000 articles took 18 ms to rank whole, and bounding it keeps a search as fast in a large help
  // center as in a small one. A match left out is an older one whose title does not match (of the
  // caller's organization: each arm reads the organization of the rows it scans). Each arm
  // scores the rows of its own scan (FTS5 evaluates bm25 for the rows it returns), never by rowid
  // lookups, which re-run the query for every row.
  const match = fts5Query(query.search);
  const result = await sql<{ id: number; document_id: string; organization_id: string }>`
    with candidates as materialized (
      select * from (
        select rowid as id, bm25(${table}, 0, 0, 5.0, 1.0) as score from ${table}
        where ${table} match ${match} and organization_id = ${query.organizationId}
        order by rowid desc limit ${RANKED_CANDIDATES})
      union all
      select * from (
        select rowid as id, bm25(${table}, 0, 0, 5.0, 1.0) as score from ${table}
        where ${table} match ${`title : (${match})`} and organization_id = ${query.organizationId}
        order by rowid desc limit ${RANKED_CANDIDATES})
    ),
    ranked as materialized (
      select id, min(score) as score from candidates group by id
      order by score, id
      limit ${window.limit} offset ${window.offset}
    )
    select ranked.id, stored.document_id, stored.organization_id
    from ranked cross join ${table} stored
    where stored.rowid = ranked.id
    order by ranked.score, ranked.id`.execute(db);
  // Other organizations' matches count as read: the window is full when they fill it.
  const ranked = result.rows
    .filter((row) => row.organization_id === query.organizationId)
    .map((row) => ({ rowid: row.id, documentId: row.document_id }));
  return { ranked, read: result.rows.length };
}

/** The marked passage of each of `hits`, by document id. */
async function excerptsOf(
  db: Db,
  index: FullTextIndex,
  search: SearchQuery,
  hits: readonly Ranked[],
): Promise<Map<string, string>> {
  if (hits.length === 0) {
    return new Map();
  }
  const table = sql.table(index);
  let rows: { document_id: string; excerpt: string | null }[];
  if (dialectOf(db) === 'postgres') {
    const options = `StartSel=${START}, StopSel=${STOP}, MaxWords=${EXCERPT_WORDS}, MinWords=8, MaxFragments=1, FragmentDelimiter=" … "`;
    const ids = sql.join(hits.map((hit) => sql`${hit.documentId}`));
    const result = await sql<{ document_id: string; excerpt: string | null }>`
      select document_id, ts_headline('english', body, ${tsqueryOf(search)}, ${options}) as excerpt
      from ${table} where document_id in (${ids})`.execute(db);
    rows = result.rows;
  } else {
    const rowids = sql.join(hits.map((hit) => sql`${hit.rowid}`));
    const result = await sql<{ document_id: string; excerpt: string | null }>`
      select document_id, snippet(${table}, 3, ${START}, ${STOP}, ${ELLIPSIS}, ${EXCERPT_WORDS}) as excerpt
      from ${table}
      where ${table} match ${fts5Query(search)} and rowid in (${rowids})`.execute(db);
    rows = result.rows;
  }
  return new Map(rows.map((row) => [row.document_id, row.excerpt ?? '']));
}

function renderExcerpt(marked: string): string {
  const escaped = marked.replace(
    /[&<>"']/g,
    (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[char]};`,
  );
  return escaped.replaceAll(START, '<mark>').replaceAll(STOP, '</mark>');
}

// ---------------------------------------------------------------------------------------------
// Ticket search: a query language (`lib/search-query.ts`) over the parts of tickets.
// ---------------------------------------------------------------------------------------------

/**
 * FTS5 MATCH text of an atom. Every word is inside double quotes and holds only letters and digits,
 * so FTS5 reads it as a string: `AND`, `NEAR(`, `:` or `*` typed by a user never become operators.
 */
function fts5Atom(atom: SearchAtom): string {
  return atom.kind === 'prefix' ? `"${atom.word}"*` : `"${atom.words.join(' ')}"`;
}

function fts5Any(atoms: readonly SearchAtom[]): string {
  const parts = atoms.map(fts5Atom);
  return parts.length === 1 ? (parts[0] ?? '') : `(${parts.join(' OR ')})`;
}

/**
 * A tsquery built by PostgreSQL's own functions from parameters, never parsed from user text as
 * tsquery syntax: a phrase through `phraseto_tsquery` (which splits it as `to_tsvector` splits the
 * documents, e-mail addresses and hyphenated words included), a prefix as `'word':*` of a word of
 * letters and digits only.
 */
function tsqueryAtom(atom: SearchAtom) {
  return atom.kind === 'prefix'
    ? sql`to_tsquery('english', ${`'${atom.word}':*`})`
    : sql`phraseto_tsquery('english', ${atom.text})`;
}

function tsqueryAny(atoms: readonly SearchAtom[]) {
  return sql`(${sql.join(atoms.map(tsqueryAtom), sql` || `)})`;
}

/** A whole query as one FTS5 expression, for an index of one document per record. */
function fts5Query(search: SearchQuery): string {
  const wanted = search.clauses.map(fts5Any).join(' AND ');
  return search.excluded.reduce((expression, atom) => `(${expression}) NOT ${fts5Atom(atom)}`, wanted);
}

/** A whole query as one tsquery; an empty part (stop words only) drops out of `&&`. */
function tsqueryOf(search: SearchQuery) {
  return sql.join(
    [...search.clauses.map(tsqueryAny), ...search.excluded.map((atom) => sql`!!(${tsqueryAtom(atom)})`)],
    sql` && `,
  );
}

const TICKET_WEIGHTS = { sqliteTitle: 10, sqliteBody: 1, postgres: '{0.1, 0.2, 0.4, 1.0}' } as const;

export interface TicketSearchQuery {
  organizationId: string;
  search: SearchQuery;
  /** Whether private comments (internal notes) count as matches. */
  includePrivate: boolean;
  /**
   * The tickets that may match (visibility and filters): a subquery on `tickets` narrowed to the
   * ticket whose id is `ticketId`, so that each hit costs a primary-key lookup rather than reading
   * every visible ticket of the organization.
   */
  ticketScope: (ticketId: Expression<string>) => Expression<unknown>;
  limit: number;
  offset: number;
}

/**
 * Ticket ids, best first. A ticket matches when, for each clause, some visible part of it (title
 * and description, or a comment) matches the clause, and no visible part matches an excluded
 * atom: the words of a query may sit in different comments, a phrase sits within one part. Its
 * score is the sum over its matching parts (SQLite `bm25`, title ten times the weight of other
 * text; PostgreSQL `ts_rank_cd`, title weight A), so a title match outranks a passing mention and
 * more matching parts outrank fewer.
 */
export async function searchTicketDocuments(db: Db, query: TicketSearchQuery): Promise<string[]> {
  const { clauses, excluded } = query.search;
  const postgres = dialectOf(db) === 'postgres';
  const privacy = query.includePrivate ? sql`` : sql`and not d.is_private`;
  // Inside CASE, so that PostgreSQL keeps it a per-hit subplan (a primary-key probe) rather than
  // pulling it up into a semi-join: the row estimate of a tsquery match is often far too low, and
  // the semi-join it then plans scans every ticket for every hit (minutes on 50,000 tickets).
  const scope = sql`and case when exists ${query.ticketScope(sql.ref('d.ticket_id'))} then 1 else 0 end = 1`;
  // With one clause and nothing excluded every hit matches the clause: no per-clause test is needed.
  const tested = clauses.length > 1 || excluded.length > 0;
  const flag = (name: string, condition: ReturnType<typeof sql>) =>
    sql`case when ${condition} then 1 else 0 end as ${sql.ref(name)}`;
  const flags = !tested
    ? []
    : postgres
      ? [
          // A clause of stop words only ('the') is an empty tsquery, which matches nothing: it
          // asks for nothing, so it holds for every part. An excluded one excludes nothing.
          ...clauses.map((clause, index) =>
            flag(`m${index}`, sql`numnode(${tsqueryAny(clause)}) = 0 or ${tsqueryAny(clause)} @@ d.document`),
          ),
          ...excluded.map((atom, index) =>
            flag(`x${index}`, sql`numnode(${tsqueryAtom(atom)}) > 0 and ${tsqueryAtom(atom)} @@ d.document`),
          ),
        ]
      : [
          // Each an uncorrelated subquery, which SQLite reads once into a temporary index.
          ...clauses.map((clause, index) =>
            flag(`m${index}`, sql`d.id in (select rowid from ticket_search where ticket_search match ${fts5Any(clause)})`),
          ),
          ...excluded.map((atom, index) =>
            flag(`x${index}`, sql`d.id in (select rowid from ticket_search where ticket_search match ${fts5Atom(atom)})`),
          ),
        ];
  const columns = sql.join([sql`d.ticket_id`, sql`hit.score`, ...flags]);
  // A materialized CTE: SQLite would otherwise flatten the subquery into the join, where bm25() may
  // not be called.
  const hit = postgres
    ? sql`(select id, ts_rank_cd(${TICKET_WEIGHTS.postgres}::float4[], document, ${tsqueryAny(clauses.flat())}) as score
        from ticket_search_documents
        where document @@ ${tsqueryAny([...clauses.flat(), ...excluded])} and organization_id = ${query.organizationId})`
    : sql`(select rowid as id, bm25(ticket_search, ${sql.lit(TICKET_WEIGHTS.sqliteTitle)}, ${sql.lit(TICKET_WEIGHTS.sqliteBody)}) as score
        from ticket_search where ticket_search match ${fts5Any([...clauses.flat(), ...excluded])})`;
  const having = tested
    ? sql`having ${sql.join(
        [
          ...clauses.map((_, index) => sql`max(${sql.ref(`m${index}`)}) = 1`),
          ...excluded.map((_, index) => sql`max(${sql.ref(`x${index}`)}) = 0`),
        ],
        sql` and `,
      )}`
    : sql``;
  // bm25 is lower for better matches, ts_rank_cd higher.
  const best = postgres ? sql`sum(score) desc` : sql`sum(score) asc`;
  const result = await sql<{ ticket_id: string }>`with hit as materialized ${hit}
    select ticket_id from (
      select ${columns}
      from hit
      join ticket_search_documents d on d.id = hit.id
      where d.organization_id = ${query.organizationId} ${privacy} ${scope}
    ) hits
    group by ticket_id
    ${having}
    order by ${best}, ticket_id
    limit ${query.limit} offset ${query.offset}`.execute(db);
  return result.rows.map((row) => row.ticket_id);
}

export interface TicketHighlight {
  ticketId: string;
  /** The comment the text is from; null for the ticket's title or description. */
  commentId: string | null;
  isPrivate: boolean;
  field: 'title' | 'description' | 'comment';
  /** HTML-escaped text with the matched words wrapped in `<mark>`: the whole title, or a passage. */
  text: string;
}

/**
 * Where each of `ticketIds` matched the query's clauses: its best `perTicket` parts, best first,
 * each field that holds a match (a ticket's own part can give its title and its description).
 */
export async function highlightTicketDocuments(
  db: Db,
  query: { search: SearchQuery; includePrivate: boolean; ticketIds: readonly string[]; perTicket: number },
): Promise<TicketHighlight[]> {
  if (query.ticketIds.length === 0) {
    return [];
  }
  const positive = query.search.clauses.flat();
  const privacy = query.includePrivate ? sql`` : sql`and not d.is_private`;
  const ids = sql.join(query.ticketIds.map((id) => sql`${id}`));
  type Row = { ticket_id: string; comment_id: string | null; is_private: unknown; title: string | null; body: string | null };
  let rows: Row[];
  if (dialectOf(db) === 'postgres') {
    const matched = tsqueryAny(positive);
    // ShortWord=0: short words ('A', '.') at the edges of a passage stay, as in SQLite's snippet.
    const title = `StartSel=${START}, StopSel=${STOP}, HighlightAll=true, ShortWord=0`;
    const body = `StartSel=${START}, StopSel=${STOP}, MaxWords=${EXCERPT_WORDS}, MinWords=8, ShortWord=0, MaxFragments=2, FragmentDelimiter=" … "`;
    const result = await sql<Row>`select ranked.ticket_id, ranked.comment_id, ranked.is_private,
        ts_headline('english', ranked.title, ${matched}, ${title}) as title,
        ts_headline('english', ranked.body, ${matched}, ${body}) as body
      from (
        select d.ticket_id, d.comment_id, d.is_private, d.title, d.body, row_number() over (
          partition by d.ticket_id
          order by ts_rank_cd(${TICKET_WEIGHTS.postgres}::float4[], d.document, ${matched}) desc, d.id
        ) as position
        from ticket_search_documents d
        where d.ticket_id in (${ids}) and d.document @@ ${matched} ${privacy}
      ) ranked
      where ranked.position <= ${query.perTicket}
      order by ranked.ticket_id, ranked.position`.execute(db);
    rows = result.rows;
  } else {
    // The page's parts first (CROSS JOIN keeps that order in SQLite), each then tested against
    // the query by rowid: not every match of the query in the index. No bm25() here: it counts
    // the documents holding each word, a scan of every match; the parts are ordered below by
    // what they hold instead (the ticket's own part first, then the most matches).
    const result = await sql<Row>`select d.ticket_id, d.comment_id, d.is_private,
        highlight(ticket_search, 0, ${START}, ${STOP}) as title,
        snippet(ticket_search, 1, ${START}, ${STOP}, ${ELLIPSIS}, ${EXCERPT_WORDS}) as body
      from ticket_search_documents d
      cross join ticket_search
      where ticket_search.rowid = d.id and ticket_search match ${fts5Any(positive)} and d.ticket_id in (${ids}) ${privacy}
      order by d.ticket_id, d.id`.execute(db);
    const marks = (row: Row) => `${row.title ?? ''}${row.body ?? ''}`.split(START).length;
    const own = (row: Row) => (row.comment_id === null ? 0 : 1);
    // A stable sort: equal parts keep the order of their ids, oldest first.
    rows = result.rows.sort((a, b) => a.ticket_id.localeCompare(b.ticket_id) || own(a) - own(b) || marks(b) - marks(a));
  }
  const taken = new Map<string, number>();
  const highlights: TicketHighlight[] = [];
  for (const row of rows) {
    const count = taken.get(row.ticket_id) ?? 0;
    if (count >= query.perTicket) {
      continue;
    }
    taken.set(row.ticket_id, count + 1);
    const base = { ticketId: row.ticket_id, commentId: row.comment_id, isPrivate: readBoolean(row.is_private) };
    const marked = (text: string | null) => text?.includes(START) === true;
    if (row.comment_id === null && marked(row.title)) {
      highlights.push({ ...base, field: 'title', text: renderExcerpt(row.title ?? '') });
    }
    if (marked(row.body)) {
      highlights.push({
        ...base,
        field: row.comment_id === null ? 'description' : 'comment',
        text: renderExcerpt(row.body ?? ''),
      });
    }
  }
  return highlights;
}
