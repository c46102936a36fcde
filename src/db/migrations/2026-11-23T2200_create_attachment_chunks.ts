import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  // The bytes of attachments kept in the database (ATTACHMENT_STORAGE=database), in order, a
  // bounded piece per row, so uploads and downloads stream without holding a whole file. The
  // key is deferred: an upload writes its chunks as they arrive and the attachment row last, in
  // one transaction.
  await db.schema
    .createTable('attachment_chunks')
    .addColumn('attachment_id', 'text', (col) => col.notNull())
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('data', types.binary, (col) => col.notNull())
    .addPrimaryKeyConstraint('attachment_chunks_pk', ['attachment_id', 'seq'])
    .addForeignKeyConstraint('attachment_chunks_attachment', ['attachment_id'], 'attachments', ['id'], (fk) =>
      fk.onDelete('cascade').deferrable().initiallyDeferred(),
    )
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attachment_chunks').execute();
}
