import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { TeamTagTable } from './team-tag.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const TAG_COLUMNS = ['id', 'team_id', 'name', 'color', 'tag_type', 'description', 'created_at', 'updated_at'] as const;

export async function insertTeamTag(db: Db, row: TeamTagTable): Promise<void> {
  await db.insertInto('team_tags').values(row).execute();
}

/** The team's tags, oldest first (ties broken by id). */
export async function listTeamTags(db: Db, organizationId: string, teamId: string) {
  return db
    .selectFrom('team_tags')
    .select(TAG_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export type TeamTagRow = Awaited<ReturnType<typeof listTeamTags>>[number];

export async function findTeamTagById(db: Db, organizationId: string, teamId: string, tagId: string) {
  return db
    .selectFrom('team_tags')
    .select(TAG_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .where('id', '=', tagId)
    .executeTakeFirst();
}

export async function updateTeamTag(db: Db, tagId: string, changes: Updateable<TeamTagTable>): Promise<void> {
  await db.updateTable('team_tags').set(changes).where('id', '=', tagId).execute();
}

export async function deleteTeamTag(db: Db, tagId: string): Promise<void> {
  await db.deleteFrom('team_tags').where('id', '=', tagId).execute();
}
