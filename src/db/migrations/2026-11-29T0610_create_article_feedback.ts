import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Readers' answers to "Was this helpful?", one per browser per article: `voter_key` is a hash of
 * the browser's id (never the id itself), and a later answer replaces the earlier one through the
 * unique index. Counts per article read `(article_id, helpful)`; writers page the comments of an
 * article newest first on `(article_id, updated_at, id)`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('article_feedback')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('article_id', 'text', (col) => col.notNull().references('help_center_articles.id'))
    .addColumn('voter_key', 'text', (col) => col.notNull())
    .addColumn('helpful', types.boolean, (col) => col.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('article_feedback_article_voter')
    .unique()
    .on('article_feedback')
    .columns(['article_id', 'voter_key'])
    .execute();
  await db.schema
    .createIndex('article_feedback_article_helpful')
    .on('article_feedback')
    .columns(['article_id', 'helpful'])
    .execute();
  await db.schema
    .createIndex('article_feedback_article_updated')
    .on('article_feedback')
    .columns(['article_id', 'updated_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('article_feedback').execute();
}
