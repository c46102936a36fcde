import { type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { escapeLike, forNoKeyUpdate, likeOperator } from '../../db/dialect.js';
import { afterKeys } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { MacroTable } from './macro.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const MACRO_COLUMNS = [
  'macros.id',
  'macros.organization_id',
  'macros.owner_id',
  'macros.team_id',
  'macros.name',
  'macros.description',
  'macros.content',
  'macros.comment_visibility',
  'macros.send_email',
  'macros.actions',
  'macros.created_at',
  'macros.updated_at',
] as const;

/** Macro lists are ordered by name, then id. */
export const MACRO_LIST_ORDER = ['macros.name', 'macros.id'] as const;

export async function insertMacro(db: Db, row: MacroTable): Promise<void> {
  await db.insertInto('macros').values(row).execute();
}

export async function findMacroById(db: Db, organizationId: string, macroId: string) {
  return db
    .selectFrom('macros')
    .select(MACRO_COLUMNS)
    .where('macros.organization_id', '=', organizationId)
    .where('macros.id', '=', macroId)
    .executeTakeFirst();
}

/** `findMacroById` holding the row's lock for the rest of the transaction: a change reads what it replaces. */
export async function lockMacroById(
  trx: Transaction<DB>,
  organizationId: string,
  macroId: string,
): Promise<MacroRow | undefined> {
  return forNoKeyUpdate(
    trx,
    trx
      .selectFrom('macros')
      .select(MACRO_COLUMNS)
      .where('macros.organization_id', '=', organizationId)
      .where('macros.id', '=', macroId),
  ).executeTakeFirst();
}

export type MacroRow = NonNullable<Awaited<ReturnType<typeof findMacroById>>>;

export async function updateMacro(db: Db, macroId: string, changes: Updateable<MacroTable>): Promise<void> {
  await db.updateTable('macros').set(changes).where('id', '=', macroId).execute();
}

export async function deleteMacro(db: Db, macroId: string): Promise<void> {
  await db.deleteFrom('macros').where('id', '=', macroId).execute();
}

/**
 * A page of the macros `viewerId` may use, by name: their personal ones and those shared with
 * their teams (every shared one when `seeAllShared`, for admins), `limit + 1` rows, walking
 * `macros_organization_name`; `nameContains` filters the walk (a search box over an
 * organization's macros, a few thousand at most).
 */
export async function listMacros(
  db: Db,
  organizationId: string,
  filter: {
    viewerId: string;
    seeAllShared: boolean;
    teamId?: string;
    nameContains?: string;
    after?: readonly CursorKey[];
    limit: number;
  },
): Promise<MacroRow[]> {
  let query = db.selectFrom('macros').select(MACRO_COLUMNS).where('macros.organization_id', '=', organizationId);
  if (filter.teamId) {
    query = query.where('macros.team_id', '=', filter.teamId);
  }
  if (filter.nameContains) {
    const pattern = `%${escapeLike(filter.nameContains)}%`;
    query = query.where(sql<boolean>`macros.name ${sql.raw(likeOperator(db))} ${pattern} escape '\\'`);
  }
  query = query.where((eb) => {
    const personal = eb.and([eb('macros.team_id', 'is', null), eb('macros.owner_id', '=', filter.viewerId)]);
    if (filter.seeAllShared) {
      return eb.or([personal, eb('macros.team_id', 'is not', null)]);
    }
    const myTeams = eb
      .selectFrom('team_members')
      .select('team_members.team_id')
      .where('team_members.user_id', '=', filter.viewerId);
    return eb.or([personal, eb('macros.team_id', 'in', myTeams)]);
  });
  if (filter.after) {
    query = query.where(afterKeys(MACRO_LIST_ORDER, filter.after, 'asc'));
  }
  return query.orderBy('macros.name').orderBy('macros.id').limit(filter.limit).execute();
}

/** The team tags named by `tagIds` that still exist, with their team and type. */
export async function findTeamTagsByIds(db: Db, organizationId: string, tagIds: readonly string[]) {
  if (tagIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('team_tags')
    .select(['team_tags.id', 'team_tags.team_id', 'team_tags.tag_type', 'team_tags.name'])
    .where('team_tags.organization_id', '=', organizationId)
    .where('team_tags.id', 'in', tagIds)
    .execute();
}

/** Whether `optionId` is a status or priority of a team of the organization (a personal macro may name any). */
export async function findTicketOptionKind(db: Db, organizationId: string, optionId: string) {
  return db
    .selectFrom('ticket_options')
    .select(['ticket_options.id', 'ticket_options.team_id', 'ticket_options.kind'])
    .where('ticket_options.organization_id', '=', organizationId)
    .where('ticket_options.id', '=', optionId)
    .executeTakeFirst();
}

/** The statuses or priorities named `name` (key or display name, any case) of the organization, or of one team. */
export async function findTicketOptionsByName(
  db: Db,
  organizationId: string,
  kind: 'status' | 'priority',
  name: string,
  teamId: string | null,
) {
  const wanted = name.trim().toLowerCase();
  let query = db
    .selectFrom('ticket_options')
    .select(['ticket_options.id', 'ticket_options.team_id', 'ticket_options.name', 'ticket_options.display_name'])
    .where('ticket_options.organization_id', '=', organizationId)
    .where('ticket_options.kind', '=', kind);
  if (teamId !== null) {
    query = query.where('ticket_options.team_id', '=', teamId);
  }
  // Compared here rather than by lower() in SQL, so both databases agree on non-ASCII letters.
  return (await query.execute()).filter(
    (option) => option.name.toLowerCase() === wanted || option.display_name.toLowerCase() === wanted,
  );
}
