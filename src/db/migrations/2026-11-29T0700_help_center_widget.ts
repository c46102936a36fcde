import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * A help center's messenger widget: its settings are JSON (null means the defaults, disabled), and
 * the secret that hosts sign identity tokens with is kept sealed (`lib/secret-box.ts`), null until
 * one is made.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema.alterTable('help_centers').addColumn('widget', types.json).execute();
  await db.schema.alterTable('help_centers').addColumn('widget_secret_sealed', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('help_centers').dropColumn('widget_secret_sealed').execute();
  await db.schema.alterTable('help_centers').dropColumn('widget').execute();
}
