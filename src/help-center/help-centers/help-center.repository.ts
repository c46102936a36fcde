import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { HelpCenterTable } from './help-center.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const HELP_CENTER_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'slug',
  'is_protected',
  'meta',
  'custom_domain',
  'theme',
  'widget',
  'created_by',
  'created_at',
  'updated_at',
] as const;

/** Whether the help center has a widget secret, without reading the sealed secret itself. */
const WIDGET_SECRET_SET = sql<boolean | number>`(widget_secret_sealed is not null)`.as('widget_secret_set');

export type HelpCenterRow = Selectable<Pick<HelpCenterTable, (typeof HELP_CENTER_COLUMNS)[number]>> & {
  widget_secret_set: boolean | number;
};

/** What a counter numbers: collection and article `uid`s; help centers only use the row as a lock. */
export type HelpCenterCounterScope = 'help_center' | 'collection' | 'article';

/**
 * The next number of the scope in the organization: 1, 2, 3… Run inside the creating transaction;
 * the upsert holds the counter row until commit, so concurrent creators queue instead of sharing
 * a number (and whatever they check before inserting, such as a free slug, stays true).
 */
export async function nextHelpCenterNumber(db: Db, organizationId: string, scope: HelpCenterCounterScope): Promise<number> {
  const row = await db
    .insertInto('help_center_counters')
    .values({ organization_id: organizationId, scope, last_value: 1 })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'scope'])
        .doUpdateSet((eb) => ({ last_value: eb('help_center_counters.last_value', '+', 1) })),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return Number(row.last_value);
}

/** Inserts the help center; false, writing nothing, when another help center has its slug. */
export async function insertHelpCenterUnlessSlugTaken(db: Db, row: Insertable<HelpCenterTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('help_centers')
    .values(row)
    .onConflict((conflict) => conflict.column('slug').doNothing())
    .returning('id')
    .execute();
  return inserted.length > 0;
}

const helpCenterByIdStatement = prepareQuery<{ organizationId: string; id: string }, HelpCenterRow>((db: Db, param) =>
  db
    .selectFrom('help_centers')
    .select(HELP_CENTER_COLUMNS)
    .select(WIDGET_SECRET_SET)
    .where('organization_id', '=', param('organizationId'))
    .where('id', '=', param('id')),
);

/** Compiled once: every list of a help center's collections and articles checks it first. */
export async function findHelpCenterById(db: Db, organizationId: string, id: string): Promise<HelpCenterRow | undefined> {
  const { rows } = await helpCenterByIdStatement.execute(db, { organizationId, id });
  return rows[0];
}

/** The help center, locked until the transaction ends: its collection tree changes one at a time. */
export async function lockHelpCenter(db: Db, organizationId: string, id: string): Promise<HelpCenterRow | undefined> {
  return forUpdate(
    db,
    db
      .selectFrom('help_centers')
      .select(HELP_CENTER_COLUMNS)
      .select(WIDGET_SECRET_SET)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id),
  ).executeTakeFirst();
}

/** A page of the organization's help centers, oldest first, after the keys `[created_at, id]`. */
export async function listHelpCenters(
  db: Db,
  organizationId: string,
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<HelpCenterRow[]> {
  const query = db
    .selectFrom('help_centers')
    .select(HELP_CENTER_COLUMNS)
    .select(WIDGET_SECRET_SET)
    .where('organization_id', '=', organizationId);
  return inKeysetOrder(query, ['created_at', 'id'], page.after).limit(page.limit).execute();
}

/** Slugs of every organization's help centers equal to `base` or `base-…` (slugs hold no LIKE wildcards). */
export async function listHelpCenterSlugs(db: Db, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom('help_centers')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  return rows.map((row) => row.slug);
}

export async function updateHelpCenter(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<HelpCenterTable>,
): Promise<void> {
  await db.updateTable('help_centers').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

const helpCenterBySlugStatement = prepareQuery<{ slug: string }, HelpCenterRow>((db: Db, param) =>
  db.selectFrom('help_centers').select(HELP_CENTER_COLUMNS).select(WIDGET_SECRET_SET).where('slug', '=', param('slug')),
);

/** The help center at `/hc/{slug}/`, of whichever organization: a slug names one in the whole instance. */
export async function findHelpCenterRowBySlug(db: Db, slug: string): Promise<HelpCenterRow | undefined> {
  const { rows } = await helpCenterBySlugStatement.execute(db, { slug });
  return rows[0];
}

const helpCenterByDomainStatement = prepareQuery<{ domain: string }, HelpCenterRow>((db: Db, param) =>
  db
    .selectFrom('help_centers')
    .select(HELP_CENTER_COLUMNS)
    .select(WIDGET_SECRET_SET)
    .where('custom_domain', '=', param('domain')),
);

/** The help center of any organization whose custom domain is `domain` (lower-case); compiled once, as site requests ask. */
export async function findHelpCenterRowByDomain(db: Db, domain: string): Promise<HelpCenterRow | undefined> {
  const { rows } = await helpCenterByDomainStatement.execute(db, { domain });
  return rows[0];
}

/** Every help center that has a custom domain, by domain. */
export async function listCustomDomainRows(db: Db) {
  return db
    .selectFrom('help_centers')
    .select(['custom_domain', 'id', 'organization_id', 'slug'])
    .where('custom_domain', 'is not', null)
    .orderBy('custom_domain')
    .execute();
}

/** Every help center's address and protection, for the instance's robots.txt. */
export async function listSiteAddressRows(db: Db) {
  return db.selectFrom('help_centers').select(['slug', 'custom_domain', 'is_protected']).orderBy('slug').execute();
}

/** The sealed widget secret of the organization's help center, or null when none was made (or no such help center). */
export async function findWidgetSecretSealed(db: Db, organizationId: string, id: string): Promise<string | null> {
  const row = await db
    .selectFrom('help_centers')
    .select('widget_secret_sealed')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.widget_secret_sealed ?? null;
}
