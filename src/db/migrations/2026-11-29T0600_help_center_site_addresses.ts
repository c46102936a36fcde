import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * A help center's public site lives at `/hc/{slug}/` on the instance's shared host, or at its own
 * custom domain, so both name one help center of the whole instance: slugs become unique across
 * organizations (they were unique per organization) and custom domains are unique too. The theme
 * (logo, colour, footer links) is JSON; null means the built-in defaults.
 *
 * Slugs that two organizations share are renamed before the index is built: the oldest help
 * center keeps its slug, each later one gets the first of `-2`, `-3`… that no help center has.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await renameSharedSlugs(db);
  await db.schema.dropIndex('help_centers_organization_slug').execute();
  await db.schema.createIndex('help_centers_slug').unique().on('help_centers').column('slug').execute();

  await db.schema.alterTable('help_centers').addColumn('custom_domain', 'text').execute();
  await db.schema.alterTable('help_centers').addColumn('theme', types.json).execute();
  // Both databases let any number of rows hold null in a unique column.
  await db.schema.createIndex('help_centers_custom_domain').unique().on('help_centers').column('custom_domain').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function renameSharedSlugs(db: Kysely<any>): Promise<void> {
  const rows: { id: string; slug: string }[] = await db
    .selectFrom('help_centers')
    .select(['id', 'slug'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  // Every slug held now is taken, so a new name never takes a slug another help center still has.
  const taken = new Set(rows.map((row) => row.slug));
  const kept = new Set<string>();
  for (const row of rows) {
    if (!kept.has(row.slug)) {
      kept.add(row.slug);
      continue;
    }
    let suffix = 2;
    while (taken.has(`${row.slug}-${suffix}`)) {
      suffix++;
    }
    const slug = `${row.slug}-${suffix}`;
    taken.add(slug);
    await db.updateTable('help_centers').set({ slug }).where('id', '=', row.id).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('help_centers_custom_domain').execute();
  await db.schema.alterTable('help_centers').dropColumn('theme').execute();
  await db.schema.alterTable('help_centers').dropColumn('custom_domain').execute();
  await db.schema.dropIndex('help_centers_slug').execute();
  await db.schema
    .createIndex('help_centers_organization_slug')
    .unique()
    .on('help_centers')
    .columns(['organization_id', 'slug'])
    .execute();
}
