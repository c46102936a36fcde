import { type Kysely, sql } from 'kysely';
import { columnTypes, dialectOf } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  await db.schema
    .createTable('help_centers')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('is_protected', types.boolean, (col) => col.notNull())
    .addColumn('meta', types.json, (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('help_centers_organization_slug')
    .unique()
    .on('help_centers')
    .columns(['organization_id', 'slug'])
    .execute();

  // The last number handed out per organization and scope (`collection`, `article`, `help_center`);
  // bumped inside the creating transaction, so the row lock also serialises concurrent creators.
  await db.schema
    .createTable('help_center_counters')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('last_value', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('help_center_counters_pk', ['organization_id', 'scope'])
    .execute();

  await db.schema
    .createTable('help_center_collections')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('uid', 'integer', (col) => col.notNull())
    .addColumn('help_center_id', 'text', (col) => col.notNull().references('help_centers.id'))
    .addColumn('parent_id', 'text', (col) => col.references('help_center_collections.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text', (col) => col.notNull())
    .addColumn('is_protected', types.boolean, (col) => col.notNull())
    .addColumn('meta', types.json, (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('help_center_collections_organization_uid')
    .unique()
    .on('help_center_collections')
    .columns(['organization_id', 'uid'])
    .execute();
  // Slugs are unique among siblings; top-level collections are siblings under the help center.
  await sql`create unique index help_center_collections_sibling_slug on help_center_collections (help_center_id, coalesce(parent_id, ''), slug)`.execute(
    db,
  );
  await db.schema.createIndex('help_center_collections_parent').on('help_center_collections').column('parent_id').execute();

  await db.schema
    .createTable('help_center_articles')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('uid', 'integer', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('content_html', 'text', (col) => col.notNull())
    .addColumn('content_markdown', 'text', (col) => col.notNull())
    .addColumn('meta', types.json, (col) => col.notNull())
    // The published version, kept apart from the draft columns above; null until first published.
    .addColumn('version_count', 'integer', (col) => col.notNull())
    .addColumn('published_title', 'text')
    .addColumn('published_description', 'text')
    .addColumn('published_html', 'text')
    .addColumn('published_by', 'text', (col) => col.references('users.id'))
    .addColumn('published_at', types.timestamp)
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('last_edited_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('last_edited_at', types.timestamp, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  await db.schema
    .createIndex('help_center_articles_organization_uid')
    .unique()
    .on('help_center_articles')
    .columns(['organization_id', 'uid'])
    .execute();

  await db.schema
    .createTable('help_center_article_collections')
    .addColumn('article_id', 'text', (col) => col.notNull().references('help_center_articles.id'))
    .addColumn('collection_id', 'text', (col) => col.notNull().references('help_center_collections.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('added_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('help_center_article_collections_pk', ['article_id', 'collection_id'])
    .execute();
  await db.schema
    .createIndex('help_center_article_collections_collection')
    .on('help_center_article_collections')
    .column('collection_id')
    .execute();

  await db.schema
    .createTable('help_center_tags')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('lower_name', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('help_center_tags_organization_lower_name')
    .unique()
    .on('help_center_tags')
    .columns(['organization_id', 'lower_name'])
    .execute();

  await db.schema
    .createTable('help_center_article_tags')
    .addColumn('article_id', 'text', (col) => col.notNull().references('help_center_articles.id'))
    .addColumn('tag_id', 'text', (col) => col.notNull().references('help_center_tags.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addPrimaryKeyConstraint('help_center_article_tags_pk', ['article_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('help_center_article_tags_tag').on('help_center_article_tags').column('tag_id').execute();

  // Full-text index of published articles, one row per article (see `db/full-text.ts`). The same
  // four columns on both databases: an FTS5 table on SQLite; on PostgreSQL a table whose weighted
  // tsvector (title A, body B) is a generated column under a GIN index.
  if (dialectOf(db) === 'postgres') {
    await sql`create table help_center_article_search (
      document_id text primary key,
      organization_id text not null,
      title text not null,
      body text not null,
      document tsvector generated always as (
        setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, body), 'B')
      ) stored
    )`.execute(db);
    await sql`create index help_center_article_search_document on help_center_article_search using gin (document)`.execute(db);
    await sql`create index help_center_article_search_organization on help_center_article_search (organization_id)`.execute(db);
  } else {
    await sql`create virtual table help_center_article_search using fts5(
      document_id unindexed,
      organization_id unindexed,
      title,
      body,
      tokenize = 'porter unicode61'
    )`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'help_center_article_search',
    'help_center_article_tags',
    'help_center_tags',
    'help_center_article_collections',
    'help_center_articles',
    'help_center_collections',
    'help_center_counters',
    'help_centers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
