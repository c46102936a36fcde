import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * SQLite: a ticket's search documents reach the FTS5 index once per commit, not once per write.
 *
 * FTS5 keeps the terms of the rows inserted into it in memory and writes them out as a new index
 * segment whenever a savepoint opens (and at commit). A write to a ticket opens several: each
 * group-commit member is one, and so is any later statement that needs its own statement journal.
 * So every reply wrote a segment of its own, and the segments' merges followed (0.3 ms a reply on
 * average, now and then 40 to 75 ms). Queued instead, the documents written by a group of
 * transactions are indexed together, in the same transaction, just before it commits: one
 * segment a group (`db/ticket-search-queue.ts`).
 *
 * `ticket_search_pending` holds the ids of documents written but not yet in the index. A queued
 * document that is removed or changed again only leaves or stays in the queue: FTS5's 'delete'
 * command must be given exactly what was indexed, and a queued document was never indexed.
 * PostgreSQL indexes a generated column and needs none of this.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    return;
  }
  await sql`create table ticket_search_pending (id integer primary key)`.execute(db);
  for (const trigger of ['ticket_search_documents_insert', 'ticket_search_documents_delete', 'ticket_search_documents_update']) {
    await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
  }
  const removeIndexed = sql`insert into ticket_search (ticket_search, rowid, title, body)
    select 'delete', old.id, old.title, old.body where not exists (select 1 from ticket_search_pending where id = old.id)`;
  await sql`create trigger ticket_search_documents_insert after insert on ticket_search_documents begin
    insert into ticket_search_pending (id) values (new.id);
  end`.execute(db);
  await sql`create trigger ticket_search_documents_delete after delete on ticket_search_documents begin
    ${removeIndexed};
    delete from ticket_search_pending where id = old.id;
  end`.execute(db);
  await sql`create trigger ticket_search_documents_update after update on ticket_search_documents begin
    ${removeIndexed};
    delete from ticket_search_pending where id = old.id;
    insert into ticket_search_pending (id) values (new.id);
  end`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    return;
  }
  for (const trigger of ['ticket_search_documents_insert', 'ticket_search_documents_delete', 'ticket_search_documents_update']) {
    await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
  }
  // What is still queued (the application's connection indexes the queue after each statement, so
  // this finds it empty there), then the queue: in this order, so nothing is indexed twice.
  await sql`insert into ticket_search (rowid, title, body)
    select d.id, d.title, d.body from ticket_search_pending p join ticket_search_documents d on d.id = p.id`.execute(db);
  await sql`drop table ticket_search_pending`.execute(db);
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
}
