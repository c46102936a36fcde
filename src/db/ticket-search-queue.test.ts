import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectSqlite, type DatabaseHandle } from './connect.js';
import type { DB } from './database.js';
import { migrateToLatest } from './migrate.js';

// The queue is SQLite's alone (PostgreSQL indexes a generated column); the ticket search's own
// tests run through HTTP on both databases. These write search documents directly, as the
// triggers on tickets and comments do, and read the FTS5 index from a second connection, which
// sees only what is committed.
describe('SQLite ticket search queue', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let db: Kysely<DB>;
  let observer: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'search-queue-'));
    handle = connectSqlite(join(dir, 'test.db'));
    db = handle.db;
    await migrateToLatest(db);
    observer = new Database(join(dir, 'test.db'));
  });

  afterEach(async () => {
    observer.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const document = (body: string) => ({
    organization_id: 'org',
    ticket_id: `ticket-${body}`,
    comment_id: null,
    is_private: false,
    title: '',
    body,
  });

  /** The documents the committed index finds for a word, by body. */
  const found = (word: string) =>
    (
      observer
        .prepare(
          'select d.body from ticket_search s join ticket_search_documents d on d.id = s.rowid where ticket_search match ? order by d.id',
        )
        .all(word) as { body: string }[]
    ).map((row) => row.body);
  const queued = () => observer.prepare('select count(*) from ticket_search_pending').pluck().get();
  /** FTS5 checks its index against the content table: a 'delete' of text never indexed would fail it. */
  const checkIndex = () => observer.exec(`insert into ticket_search (ticket_search, rank) values ('integrity-check', 1)`);

  it('indexes the documents of a group of transactions at its commit, and none of a member rolled back', async () => {
    const write = (body: string, fail = false) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('ticket_search_documents').values(document(body)).execute();
        if (fail) {
          throw new Error('rolled back');
        }
      });
    const results = await Promise.allSettled([write('apple one'), write('apple two', true), write('apple three')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(found('apple')).toEqual(['apple one', 'apple three']);
    expect(queued()).toBe(0);
    checkIndex();
  });

  it('never indexes a document changed or removed before its commit, and indexes what it became', async () => {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('ticket_search_documents')
        .values([document('pear kept'), document('pear removed')])
        .execute();
      await trx.deleteFrom('ticket_search_documents').where('body', '=', 'pear removed').execute();
      await trx.updateTable('ticket_search_documents').set({ body: 'plum now' }).where('body', '=', 'pear kept').execute();
    });
    expect(found('pear')).toEqual([]);
    expect(found('plum')).toEqual(['plum now']);
    checkIndex();
    // Once indexed, a change or removal takes the old text out of the index.
    await db.updateTable('ticket_search_documents').set({ body: 'fig later' }).where('body', '=', 'plum now').execute();
    expect(found('plum')).toEqual([]);
    expect(found('fig')).toEqual(['fig later']);
    await db.deleteFrom('ticket_search_documents').where('body', '=', 'fig later').execute();
    expect(found('fig')).toEqual([]);
    expect(queued()).toBe(0);
    checkIndex();
  });

  it('indexes a write made outside a transaction as soon as it is made', async () => {
    await db.insertInto('ticket_search_documents').values(document('quince alone')).execute();
    expect(found('quince')).toEqual(['quince alone']);
    expect(queued()).toBe(0);
  });

  it('indexes at the next commit what another connection queued and left', async () => {
    observer
      .prepare(
        `insert into ticket_search_documents (organization_id, ticket_id, is_private, title, body) values ('org', 't', 0, '', ?)`,
      )
      .run('lime left');
    expect(found('lime')).toEqual([]);
    await db.transaction().execute((trx) => trx.insertInto('ticket_search_documents').values(document('lime next')).execute());
    expect(found('lime')).toEqual(['lime left', 'lime next']);
    checkIndex();
  });

  it('keeps the index whole through a down migration and back', async () => {
    await db.transaction().execute((trx) => trx.insertInto('ticket_search_documents').values(document('kiwi first')).execute());
    observer
      .prepare(
        `insert into ticket_search_documents (organization_id, ticket_id, is_private, title, body) values ('org', 't', 0, '', ?)`,
      )
      .run('kiwi queued');
    const { down } = await import('./migrations/2026-11-30T1600_ticket_search_queue.js');
    await down(db);
    expect(found('kiwi')).toEqual(['kiwi first', 'kiwi queued']);
    await sql`delete from kysely_migration where name = '2026-11-30T1600_ticket_search_queue'`.execute(db);
    await migrateToLatest(db);
    await db.insertInto('ticket_search_documents').values(document('kiwi again')).execute();
    expect(found('kiwi')).toEqual(['kiwi first', 'kiwi queued', 'kiwi again']);
    checkIndex();
  });
});
