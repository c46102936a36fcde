import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  // Each change of an article's draft counts one revision, so an editor saving over a draft it
  // never saw (another person's save in between) is refused by a conditional update.
  await db.schema
    .alterTable('help_center_articles')
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('help_center_articles').dropColumn('revision').execute();
}
