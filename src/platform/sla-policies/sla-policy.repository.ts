import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { renumberList } from '../../db/renumber.js';
import type { SlaPolicyTable } from './sla-policy.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const COLUMNS = [
  'id',
  'name',
  'description',
  'position',
  'and_rules',
  'or_rules',
  'targets',
  'business_hours',
  'ai_replies_count',
  'warning_share',
  'created_by_id',
  'created_at',
  'updated_at',
] as const;

export async function insertSlaPolicy(db: Db, row: SlaPolicyTable): Promise<void> {
  await db.insertInto('sla_policies').values(row).execute();
}

/** The organization's policies in evaluation order. */
export async function listSlaPolicies(db: Db, organizationId: string) {
  return db
    .selectFrom('sla_policies')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('position')
    .execute();
}

export type SlaPolicyRow = Awaited<ReturnType<typeof listSlaPolicies>>[number];

export async function findSlaPolicyById(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('sla_policies')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findSlaPolicyIdByPosition(db: Db, organizationId: string, position: number) {
  return db
    .selectFrom('sla_policies')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('position', '=', position)
    .executeTakeFirst();
}

export async function findHighestPosition(db: Db, organizationId: string): Promise<number | null> {
  const row = await db
    .selectFrom('sla_policies')
    .select((eb) => eb.fn.max('position').as('highest'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row?.highest === null || row?.highest === undefined ? null : Number(row.highest);
}

export async function updateSlaPolicy(db: Db, id: string, changes: Updateable<SlaPolicyTable>): Promise<void> {
  await db.updateTable('sla_policies').set(changes).where('id', '=', id).execute();
}

/** The organization's policies' ids and positions, each row held until the transaction ends (in id order). */
export async function lockSlaPolicyPositions(trx: Transaction<DB>, organizationId: string) {
  const rows = await forUpdate(
    trx,
    trx.selectFrom('sla_policies').select(['id', 'position']).where('organization_id', '=', organizationId).orderBy('id'),
  ).execute();
  return rows.map((row) => ({ id: row.id, position: Number(row.position) }));
}

/** Gives each moved policy its new position (`db/renumber.ts`: positions are unique in the organization). */
export function renumberSlaPolicies(
  trx: Transaction<DB>,
  organizationId: string,
  moves: readonly { id: string; position: number }[],
  updatedAt: string,
): Promise<void> {
  const list = {
    table: 'sla_policies',
    position: 'position',
    scope: { column: 'organization_id', value: organizationId },
  } as const;
  return renumberList(trx, list, moves, updatedAt);
}

export async function deleteSlaPolicy(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sla_policies').where('id', '=', id).execute();
}
