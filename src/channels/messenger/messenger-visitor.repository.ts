import type { Insertable, Kysely, Transaction } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import type { MessengerVisitorTable } from './messenger-visitor.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const VISITOR_COLUMNS = [
  'id',
  'organization_id',
  'help_center_id',
  'contact_id',
  'external_subject',
  'created_at',
  'last_seen_at',
] as const;

export type VisitorRow = Pick<MessengerVisitorTable, (typeof VISITOR_COLUMNS)[number]>;

export async function insertVisitor(db: Db, row: Insertable<MessengerVisitorTable>): Promise<void> {
  await db.insertInto('messenger_visitors').values(row).execute();
}

const visitorByTokenStatement = prepareQuery<{ tokenHash: string }, VisitorRow>((db: Db, param) =>
  db.selectFrom('messenger_visitors').select(VISITOR_COLUMNS).where('token_hash', '=', param('tokenHash')),
);

/** The visitor holding the token (by its hash), of whichever help center: compiled once, as every panel request asks. */
export async function findVisitorByTokenHash(db: Db, tokenHash: string): Promise<VisitorRow | undefined> {
  const { rows } = await visitorByTokenStatement.execute(db, { tokenHash });
  return rows[0];
}

/**
 * Gives the visitor a new token and its verified identity, only while it still holds `tokenHash`
 * and is anonymous or already this subject: one conditional UPDATE, so of two concurrent upgrades
 * of one token only one succeeds. Answers whether it did.
 */
export async function upgradeVisitor(
  db: Db,
  where: { id: string; tokenHash: string; subject: string },
  changes: { tokenHash: string; contactId: string; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('messenger_visitors')
    .set({
      token_hash: changes.tokenHash,
      contact_id: changes.contactId,
      external_subject: where.subject,
      last_seen_at: changes.now,
    })
    .where('id', '=', where.id)
    .where('token_hash', '=', where.tokenHash)
    .where((eb) => eb.or([eb('contact_id', 'is', null), eb('external_subject', '=', where.subject)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function touchVisitor(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('messenger_visitors').set({ last_seen_at: now }).where('id', '=', id).execute();
}
