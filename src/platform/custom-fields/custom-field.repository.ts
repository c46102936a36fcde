import { type ExpressionBuilder, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import { prepareQueryByShape } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { escapeLike, likeOperator } from '../../db/dialect.js';
import { afterKeys } from '../../db/keyset.js';
import type { ListPage } from '../../lib/cursors.js';
import type { CustomFieldSource, CustomFieldTable } from './custom-field.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const COLUMNS = [
  'uid',
  'organization_id',
  'team_id',
  'name',
  'slug',
  'source',
  'field_type',
  'options',
  'metadata',
  'description',
  'is_active',
  'auto_add_to_all_forms',
  'hint_text',
  'placeholder_text',
  'default_value',
  'regex_for_validation',
  'mandatory_on_creation',
  'mandatory_on_close',
  'visible_to_customer',
  'editable_by_customer',
  'lookup',
  'version',
  'updated_by',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

export type CustomFieldRow = Pick<CustomFieldTable, (typeof COLUMNS)[number]>;

/**
 * Inserts unless the slug is taken in the organization and source (deleted fields included);
 * answers whether the row went in, so a caller racing another insert can pick the next slug.
 */
export async function insertCustomField(db: Db, row: CustomFieldTable): Promise<boolean> {
  const result = await db
    .insertInto('custom_fields')
    .values(row)
    .onConflict((conflict) => conflict.columns(['organization_id', 'source', 'slug']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Slugs equal to `base` or of the form `base-…`, deleted fields included. */
export async function findSlugsLike(db: Db, organizationId: string, source: CustomFieldSource, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom('custom_fields')
    .select('slug')
    .where('organization_id', '=', organizationId)
    .where('source', '=', source)
    .where((eb) => eb.or([eb('slug', '=', base), sql<boolean>`slug like ${`${escapeLike(base)}-%`} escape '\\'`]))
    .execute();
  return rows.map((row) => row.slug);
}

/** A live (not deleted) field of the organization. */
export async function findCustomFieldByUid(db: Db, organizationId: string, uid: string): Promise<CustomFieldRow | undefined> {
  return db
    .selectFrom('custom_fields')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('uid', '=', uid)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Fields by uid in any organization, deleted ones included: callers tell missing, foreign and stale apart. */
export async function findCustomFieldsAnywhere(db: Db, uids: readonly string[]): Promise<CustomFieldRow[]> {
  if (uids.length === 0) {
    return [];
  }
  return db.selectFrom('custom_fields').select(COLUMNS).where('uid', 'in', uids).execute();
}

/** Live fields of the organization among `uids`. */
export async function findCustomFieldsByUids(db: Db, organizationId: string, uids: readonly string[]): Promise<CustomFieldRow[]> {
  if (uids.length === 0) {
    return [];
  }
  return db
    .selectFrom('custom_fields')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('uid', 'in', uids)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Which fields a list shows besides the organization-wide ones: one team's, or those of every
 * active team a user belongs to (`memberUserId: null`: every active team, for organization admins).
 */
export type CustomFieldScope =
  | { teamId: string; includeOrganizationWide: boolean }
  | { memberUserId: string | null; includeOrganizationWide: boolean };

export interface CustomFieldFilter {
  organizationId: string;
  scope: CustomFieldScope;
  source?: CustomFieldSource;
  /** Part of the name, matched case-insensitively. */
  nameContains?: string;
  page: ListPage;
}

/**
 * Whether the field belongs to an active team of the organization (with `memberUserId`, one that
 * user belongs to): a lookup by key for each field the list reads, so its cost does not grow with
 * the number of teams, as a set of every team's id would.
 */
function ofActiveTeam(
  eb: ExpressionBuilder<DB, 'custom_fields'>,
  organizationId: string,
  memberUserId: string | null | undefined,
) {
  let teams = eb
    .selectFrom('teams')
    .select('teams.id')
    .whereRef('teams.id', '=', 'custom_fields.team_id')
    .where('teams.organization_id', '=', organizationId)
    .where('teams.archived_at', 'is', null);
  if (memberUserId) {
    teams = teams.where((member) =>
      member.exists(
        member
          .selectFrom('team_members')
          .select('team_members.user_id')
          .whereRef('team_members.team_id', '=', 'teams.id')
          .where('team_members.user_id', '=', memberUserId),
      ),
    );
  }
  return eb.exists(teams);
}

/** A list's values, flat, for the compiled statement of its shape. */
interface CustomFieldListParams {
  organizationId: string;
  teamId?: string;
  memberUserId?: string | null;
  includeOrganizationWide: boolean;
  source?: CustomFieldSource;
  namePattern?: string;
  afterTime?: string;
  afterUid?: string;
  offset: number;
  limit: number;
}

/**
 * One page of fields as a deferred join: the page's uids from the organization's (or the team's)
 * index, then only those rows. Compiled once per shape (team or caller's teams, filters, cursor or
 * page, page size), since building the query cost as much as running it.
 */
const listCustomFieldsStatement = prepareQueryByShape<CustomFieldListParams, CustomFieldRow>(
  (params) =>
    [
      params.teamId !== undefined ? 'team' : params.memberUserId ? 'member' : 'admin',
      params.includeOrganizationWide,
      params.source !== undefined,
      params.namePattern !== undefined,
      params.afterTime !== undefined,
      params.offset > 0,
      params.limit,
    ].join(':'),
  (db, param, shape) => {
    let uids = db
      .selectFrom('custom_fields')
      .select(['custom_fields.uid', 'custom_fields.created_at'])
      .where('custom_fields.organization_id', '=', param('organizationId'))
      .where('custom_fields.deleted_at', 'is', null)
      .where((eb) => {
        const teamFields =
          shape.teamId !== undefined
            ? eb('custom_fields.team_id', '=', param('teamId') as string)
            : ofActiveTeam(eb, param('organizationId'), shape.memberUserId ? param('memberUserId') : null);
        return shape.includeOrganizationWide ? eb.or([eb('custom_fields.team_id', 'is', null), teamFields]) : teamFields;
      });
    if (shape.source !== undefined) {
      uids = uids.where('custom_fields.source', '=', param('source') as CustomFieldSource);
    }
    if (shape.namePattern !== undefined) {
      uids = uids.where(sql<boolean>`custom_fields.name ${sql.raw(likeOperator(db))} ${param('namePattern')} escape '\\'`);
    }
    if (shape.afterTime !== undefined) {
      uids = uids.where(
        afterKeys(
          ['custom_fields.created_at', 'custom_fields.uid'],
          [param('afterTime') as string, param('afterUid') as string],
          'asc',
        ),
      );
    }
    // The page size is written into the statement, so PostgreSQL's generic plan sees it.
    let page = uids.orderBy('custom_fields.created_at').orderBy('custom_fields.uid').limit(sql.lit(shape.limit));
    if (shape.offset > 0) {
      page = page.offset(param('offset'));
    }
    return db
      .selectFrom(page.as('page'))
      .innerJoin('custom_fields', 'custom_fields.uid', 'page.uid')
      .select(COLUMNS.map((column) => `custom_fields.${column}` as const))
      .orderBy('page.created_at')
      .orderBy('page.uid');
  },
);

export async function listCustomFields(db: Db, filter: CustomFieldFilter): Promise<CustomFieldRow[]> {
  const { scope, page } = filter;
  const [afterTime, afterUid] = (page.after ?? []) as string[];
  const { rows } = await listCustomFieldsStatement.execute(db, {
    organizationId: filter.organizationId,
    ...('teamId' in scope ? { teamId: scope.teamId } : { memberUserId: scope.memberUserId }),
    includeOrganizationWide: scope.includeOrganizationWide,
    source: filter.source,
    namePattern: filter.nameContains ? `%${escapeLike(filter.nameContains)}%` : undefined,
    afterTime,
    afterUid,
    offset: page.offset,
    limit: page.limit + 1,
  });
  return rows;
}

/**
 * Applies `changes` and bumps the version only if the field is still at `version`: the compare and
 * the write are one statement, so of two writers at the same version exactly one gets a row back.
 */
export async function updateCustomFieldAtVersion(
  db: Db,
  organizationId: string,
  uid: string,
  version: number,
  changes: Updateable<CustomFieldTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('custom_fields')
    .set(changes)
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('organization_id', '=', organizationId)
    .where('uid', '=', uid)
    .where('version', '=', version)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Soft delete, bumping the version; false when the field was already gone. */
export async function softDeleteCustomField(
  db: Db,
  organizationId: string,
  uid: string,
  at: string,
  userId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('custom_fields')
    .set({ deleted_at: at, updated_at: at, updated_by: userId })
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('organization_id', '=', organizationId)
    .where('uid', '=', uid)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Active fields of a record kind that must hold a value, organization-wide or of `teamId`. */
export async function findMandatoryCustomFields(
  db: Db,
  organizationId: string,
  source: CustomFieldSource,
  when: 'mandatory_on_creation' | 'mandatory_on_close',
  teamId: string | undefined,
): Promise<CustomFieldRow[]> {
  return db
    .selectFrom('custom_fields')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('source', '=', source)
    .where('deleted_at', 'is', null)
    .where('is_active', '=', true)
    .where(when, '=', true)
    .where((eb) => (teamId ? eb.or([eb('team_id', 'is', null), eb('team_id', '=', teamId)]) : eb('team_id', 'is', null)))
    .orderBy('created_at')
    .orderBy('uid')
    .execute();
}

/** Stores a default value in its normal form (part of a bulk update, after the version was checked). */
export async function setCustomFieldDefaultValue(db: Db, uid: string, defaultValue: string | null): Promise<void> {
  await db.updateTable('custom_fields').set({ default_value: defaultValue }).where('uid', '=', uid).execute();
}
