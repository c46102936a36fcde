import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate } from '../../db/dialect.js';
import { afterKeys } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { SavedViewTable } from './view.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const VIEW_COLUMNS = [
  'saved_views.id',
  'saved_views.organization_id',
  'saved_views.owner_id',
  'saved_views.team_id',
  'saved_views.name',
  'saved_views.filters',
  'saved_views.sort',
  'saved_views.created_at',
  'saved_views.updated_at',
] as const;

/** Saved views are listed by name, then id. */
export const VIEW_LIST_ORDER = ['saved_views.name', 'saved_views.id'] as const;

export async function insertView(db: Db, row: SavedViewTable): Promise<void> {
  await db.insertInto('saved_views').values(row).execute();
}

export async function findViewById(db: Db, organizationId: string, viewId: string) {
  return db
    .selectFrom('saved_views')
    .select(VIEW_COLUMNS)
    .where('saved_views.organization_id', '=', organizationId)
    .where('saved_views.id', '=', viewId)
    .executeTakeFirst();
}

/** `findViewById` holding the row's lock for the rest of the transaction: a change reads what it replaces. */
export async function lockViewById(trx: Transaction<DB>, organizationId: string, viewId: string): Promise<ViewRow | undefined> {
  return forNoKeyUpdate(
    trx,
    trx
      .selectFrom('saved_views')
      .select(VIEW_COLUMNS)
      .where('saved_views.organization_id', '=', organizationId)
      .where('saved_views.id', '=', viewId),
  ).executeTakeFirst();
}

export type ViewRow = NonNullable<Awaited<ReturnType<typeof findViewById>>>;

export async function updateView(db: Db, viewId: string, changes: Updateable<SavedViewTable>): Promise<void> {
  await db.updateTable('saved_views').set(changes).where('id', '=', viewId).execute();
}

export async function deleteView(db: Db, viewId: string): Promise<void> {
  await db.deleteFrom('saved_views').where('id', '=', viewId).execute();
}

/**
 * A page of the views `viewerId` may see, by name: their personal ones and those shared with their
 * teams (every shared one when `seeAllShared`, for admins), `limit + 1` rows, walking
 * `saved_views_organization_name`.
 */
export async function listViews(
  db: Db,
  organizationId: string,
  filter: { viewerId: string; seeAllShared: boolean; after?: readonly CursorKey[]; limit: number },
): Promise<ViewRow[]> {
  let query = db
    .selectFrom('saved_views')
    .select(VIEW_COLUMNS)
    .where('saved_views.organization_id', '=', organizationId)
    .where((eb) => {
      const personal = eb.and([eb('saved_views.team_id', 'is', null), eb('saved_views.owner_id', '=', filter.viewerId)]);
      if (filter.seeAllShared) {
        return eb.or([personal, eb('saved_views.team_id', 'is not', null)]);
      }
      const myTeams = eb
        .selectFrom('team_members')
        .select('team_members.team_id')
        .where('team_members.user_id', '=', filter.viewerId);
      return eb.or([personal, eb('saved_views.team_id', 'in', myTeams)]);
    });
  if (filter.after) {
    query = query.where(afterKeys(VIEW_LIST_ORDER, filter.after, 'asc'));
  }
  return query.orderBy('saved_views.name').orderBy('saved_views.id').limit(filter.limit).execute();
}

/** Every view of the organization shared with a team, by name then id. */
export async function listSharedViewRows(db: Db, organizationId: string): Promise<ViewRow[]> {
  return db
    .selectFrom('saved_views')
    .select(VIEW_COLUMNS)
    .where('saved_views.organization_id', '=', organizationId)
    .where('saved_views.team_id', 'is not', null)
    .orderBy('saved_views.name')
    .orderBy('saved_views.id')
    .execute();
}

/** The active teams `userId` is a member of, by id (the built-in view "Unassigned in my teams"). */
export async function findMemberTeamIds(db: Db, organizationId: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select('teams.id')
    .where('team_members.user_id', '=', userId)
    .where('teams.organization_id', '=', organizationId)
    .where('teams.archived_at', 'is', null)
    .orderBy('teams.id')
    .execute();
  return rows.map((row) => row.id);
}
