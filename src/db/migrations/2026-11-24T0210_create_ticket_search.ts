import { type Kysely, sql } from 'kysely';
import { columnTypes, dialectOf } from '../dialect.js';

/**
 * Full-text index of tickets: one document per searchable part of a live ticket, the ticket itself
 * (title and description) and each live comment (its plain-text content), so a hit says where it
 * matched and a private comment can be left out for a viewer who may not read it.
 *
 * The documents are written by database triggers on `tickets` and `ticket_comments`, in the same
 * statement (so the same transaction) as every write: creation, edits, soft deletes, moves of a
 * comment to another ticket, hard deletes. No code path can forget them, and a search right after
 * a write finds it. A soft-deleted ticket or comment leaves the index (a deleted thread takes its
 * replies with it, as the comment list hides them); restoring one brings it back.
 *
 * SQLite: `ticket_search_documents` is an ordinary table (a stable INTEGER PRIMARY KEY) and
 * `ticket_search` an FTS5 index over it as external content (`porter unicode61`), kept in step by
 * the documents table's own triggers, the pattern of the FTS5 manual. PostgreSQL: the documents
 * table carries a generated, weighted tsvector ('english'; title A, body B) under a GIN index.
 *
 * Existing tickets and comments are indexed here.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  const postgres = dialectOf(db) === 'postgres';
  let table = db.schema.createTable('ticket_search_documents');
  table = postgres
    ? table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    : table.addColumn('id', 'integer', (col) => col.primaryKey());
  table = table
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('ticket_id', 'text', (col) => col.notNull())
    .addColumn('comment_id', 'text')
    .addColumn('is_private', types.boolean, (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull());
  if (postgres) {
    table = table.addColumn('document', sql`tsvector`, (col) =>
      col
        .generatedAlwaysAs(
          sql`setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, body), 'B')`,
        )
        .stored(),
    );
  }
  await table.execute();
  // The triggers find a ticket's or a comment's documents by these; highlights read a page's tickets.
  await db.schema.createIndex('ticket_search_documents_ticket').on('ticket_search_documents').column('ticket_id').execute();
  await db.schema
    .createIndex('ticket_search_documents_comment')
    .on('ticket_search_documents')
    .column('comment_id')
    .unique()
    .execute();
  if (postgres) {
    await sql`create index ticket_search_documents_document on ticket_search_documents using gin (document)`.execute(db);
    await createPostgresTriggers(db);
  } else {
    await sql`create virtual table ticket_search using fts5(
      title,
      body,
      content = 'ticket_search_documents',
      content_rowid = 'id',
      tokenize = 'porter unicode61'
    )`.execute(db);
    await createSqliteTriggers(db);
  }
  // Backfill: every live ticket and every live comment of a live ticket (and of a live thread).
  await sql`insert into ticket_search_documents (organization_id, ticket_id, comment_id, is_private, title, body)
    select organization_id, id, null, ${postgres ? sql`false` : sql`0`}, ${clean(postgres, sql`title`)}, ${clean(postgres, sql`coalesce(description, '')`)}
    from tickets where deleted_at is null`.execute(db);
  await sql`insert into ticket_search_documents (organization_id, ticket_id, comment_id, is_private, title, body)
    ${liveComments(postgres, sql`true`)}`.execute(db);
}

/**
 * Indexed text without the control characters \u0002 and \u0003, which the search marks matches
 * with inside its queries (see `db/full-text.ts`): text cannot fake a highlight.
 */
function clean(postgres: boolean, text: ReturnType<typeof sql>) {
  const char = postgres ? sql.raw('chr') : sql.raw('char');
  return sql`replace(replace(${text}, ${char}(2), ' '), ${char}(3), ' ')`;
}

/**
 * The documents of live comments chosen by `which` (a condition on `c`): the comment, its ticket
 * and, for a reply, its thread's first comment all live.
 */
function liveComments(postgres: boolean, which: ReturnType<typeof sql>) {
  return sql`select c.organization_id, c.ticket_id, c.id, c.comment_visibility = 'private', '', ${clean(postgres, sql`c.content`)}
    from ticket_comments c
    join tickets t on t.id = c.ticket_id
    left join ticket_comments p on p.id = c.parent_comment_id
    where ${which} and c.deleted_at is null and t.deleted_at is null and p.deleted_at is null`;
}

const TICKET_DOCUMENT = sql`insert into ticket_search_documents (organization_id, ticket_id, comment_id, is_private, title, body)`;

// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  // The FTS5 index follows its content table (external content: the 'delete' command needs the old values).
  await sql`create trigger ticket_search_documents_insert after insert on ticket_search_documents begin
    insert into ticket_search (rowid, title, body) values (new.id, new.title, new.body);
  end`.execute(db);
  await sql`create trigger ticket_search_documents_delete after delete on ticket_search_documents begin
    insert into ticket_search (ticket_search, rowid, title, body) values ('delete', old.id, old.title, old.body);
  end`.execute(db);
  await sql`create trigger ticket_search_documents_update after update on ticket_search_documents begin
    insert into ticket_search (ticket_search, rowid, title, body) values ('delete', old.id, old.title, old.body);
    insert into ticket_search (rowid, title, body) values (new.id, new.title, new.body);
  end`.execute(db);

  const ticketDocument = sql`${TICKET_DOCUMENT}
    select new.organization_id, new.id, null, 0, ${clean(false, sql`new.title`)}, ${clean(false, sql`coalesce(new.description, '')`)} where new.deleted_at is null`;
  await sql`create trigger tickets_search_insert after insert on tickets begin
    ${ticketDocument};
  end`.execute(db);
  await sql`create trigger tickets_search_text after update of title, description, deleted_at on tickets
    when old.title is not new.title or old.description is not new.description or old.deleted_at is not new.deleted_at
  begin
    delete from ticket_search_documents where ticket_id = old.id and comment_id is null;
    ${ticketDocument};
  end`.execute(db);
  await sql`create trigger tickets_search_comments after update of deleted_at on tickets
    when old.deleted_at is not new.deleted_at
  begin
    delete from ticket_search_documents where ticket_id = old.id and comment_id is not null;
    ${TICKET_DOCUMENT} ${liveComments(false, sql`c.ticket_id = new.id`)};
  end`.execute(db);
  await sql`create trigger tickets_search_delete after delete on tickets begin
    delete from ticket_search_documents where ticket_id = old.id;
  end`.execute(db);

  await sql`create trigger ticket_comments_search_insert after insert on ticket_comments begin
    ${TICKET_DOCUMENT} ${liveComments(false, sql`c.id = new.id`)};
  end`.execute(db);
  await sql`create trigger ticket_comments_search_update
    after update of content, comment_visibility, deleted_at, ticket_id, parent_comment_id on ticket_comments
    when old.content is not new.content or old.comment_visibility is not new.comment_visibility
      or old.deleted_at is not new.deleted_at or old.ticket_id is not new.ticket_id
      or old.parent_comment_id is not new.parent_comment_id
  begin
    delete from ticket_search_documents where comment_id = old.id;
    ${TICKET_DOCUMENT} ${liveComments(false, sql`c.id = new.id`)};
  end`.execute(db);
  await sql`create trigger ticket_comments_search_thread after update of deleted_at on ticket_comments
    when old.deleted_at is not new.deleted_at
  begin
    delete from ticket_search_documents where comment_id in (select id from ticket_comments where parent_comment_id = new.id);
    ${TICKET_DOCUMENT} ${liveComments(false, sql`c.parent_comment_id = new.id`)};
  end`.execute(db);
  await sql`create trigger ticket_comments_search_delete after delete on ticket_comments begin
    delete from ticket_search_documents where comment_id = old.id;
  end`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  await sql`create function tickets_search_sync() returns trigger language plpgsql as $$
  begin
    if tg_op = 'UPDATE' and old.title is not distinct from new.title
      and old.description is not distinct from new.description
      and old.deleted_at is not distinct from new.deleted_at then
      return null;
    end if;
    if tg_op <> 'INSERT' then
      delete from ticket_search_documents where ticket_id = old.id and comment_id is null;
    end if;
    if tg_op <> 'DELETE' and new.deleted_at is null then
      ${TICKET_DOCUMENT} values (new.organization_id, new.id, null, false, ${clean(true, sql`new.title`)}, ${clean(true, sql`coalesce(new.description, '')`)});
    end if;
    if tg_op = 'DELETE' or (tg_op = 'UPDATE' and old.deleted_at is distinct from new.deleted_at) then
      delete from ticket_search_documents where ticket_id = old.id and comment_id is not null;
    end if;
    if tg_op = 'UPDATE' and old.deleted_at is distinct from new.deleted_at then
      ${TICKET_DOCUMENT} ${liveComments(true, sql`c.ticket_id = new.id`)};
    end if;
    return null;
  end $$`.execute(db);
  await sql`create trigger tickets_search after insert or delete or update of title, description, deleted_at on tickets
    for each row execute function tickets_search_sync()`.execute(db);

  await sql`create function ticket_comments_search_sync() returns trigger language plpgsql as $$
  begin
    if tg_op = 'UPDATE' and old.content is not distinct from new.content
      and old.comment_visibility is not distinct from new.comment_visibility
      and old.deleted_at is not distinct from new.deleted_at
      and old.ticket_id is not distinct from new.ticket_id
      and old.parent_comment_id is not distinct from new.parent_comment_id then
      return null;
    end if;
    if tg_op <> 'INSERT' then
      delete from ticket_search_documents where comment_id = old.id;
    end if;
    if tg_op <> 'DELETE' then
      ${TICKET_DOCUMENT} ${liveComments(true, sql`c.id = new.id`)};
    end if;
    if tg_op = 'UPDATE' and old.deleted_at is distinct from new.deleted_at then
      delete from ticket_search_documents
        where comment_id in (select id from ticket_comments where parent_comment_id = new.id);
      ${TICKET_DOCUMENT} ${liveComments(true, sql`c.parent_comment_id = new.id`)};
    end if;
    return null;
  end $$`.execute(db);
  await sql`create trigger ticket_comments_search
    after insert or delete or update of content, comment_visibility, deleted_at, ticket_id, parent_comment_id on ticket_comments
    for each row execute function ticket_comments_search_sync()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger ticket_comments_search on ticket_comments`.execute(db);
    await sql`drop trigger tickets_search on tickets`.execute(db);
    await sql`drop function ticket_comments_search_sync()`.execute(db);
    await sql`drop function tickets_search_sync()`.execute(db);
  } else {
    for (const trigger of [
      'ticket_comments_search_delete',
      'ticket_comments_search_thread',
      'ticket_comments_search_update',
      'ticket_comments_search_insert',
      'tickets_search_delete',
      'tickets_search_comments',
      'tickets_search_text',
      'tickets_search_insert',
    ]) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
    await sql`drop table ticket_search`.execute(db);
  }
  await db.schema.dropTable('ticket_search_documents').execute();
}
