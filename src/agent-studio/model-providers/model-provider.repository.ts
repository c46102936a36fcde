import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { ModelProviderTable } from './model-provider.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Every column: the sealed key is only ever opened by the service, never returned. */
const PROVIDER_COLUMNS = [
  'id',
  'organization_id',
  'created_by_id',
  'name',
  'kind',
  'base_url',
  'api_key_encrypted',
  'default_model',
  'model_prices',
  'created_at',
  'updated_at',
] as const;

export type ModelProviderRow = Pick<ModelProviderTable, (typeof PROVIDER_COLUMNS)[number]>;

export async function insertModelProvider(db: Db, row: ModelProviderTable): Promise<void> {
  await db.insertInto('model_providers').values(row).execute();
}

export async function findModelProvider(
  db: Db,
  organizationId: string,
  providerId: string,
): Promise<ModelProviderRow | undefined> {
  return db
    .selectFrom('model_providers')
    .select(PROVIDER_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', providerId)
    .executeTakeFirst();
}

/** A page of the organization's providers in creation order, after the keys `[created_at, id]`. */
export async function listModelProviders(
  db: Db,
  organizationId: string,
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<ModelProviderRow[]> {
  const query = db.selectFrom('model_providers').select(PROVIDER_COLUMNS).where('organization_id', '=', organizationId);
  return inKeysetOrder(query, ['created_at', 'id'], page.after).limit(page.limit).execute();
}

export async function updateModelProvider(
  db: Db,
  organizationId: string,
  providerId: string,
  changes: Updateable<ModelProviderTable>,
): Promise<number> {
  const result = await db
    .updateTable('model_providers')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', providerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteModelProvider(db: Db, organizationId: string, providerId: string): Promise<number> {
  const result = await db
    .deleteFrom('model_providers')
    .where('organization_id', '=', organizationId)
    .where('id', '=', providerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
