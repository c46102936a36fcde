import { sql, type Transaction } from 'kysely';
import type { DB } from './database.js';

/** The ordered rows of one list: the table, its position column, and the column and value that name the list. */
export interface OrderedList {
  table: 'sla_policies' | 'routing_rules';
  position: 'position' | 'evaluation_order';
  scope: { column: 'organization_id' | 'team_id'; value: string };
}

/**
 * Gives each row of `moves` its new position in two statements, because the list's positions are
 * unique and checked row by row: first every moved row to a negative position of its own (no row
 * has one), then each to its place. Positions are the server's own integers, written as literals.
 */
export async function renumberList(
  trx: Transaction<DB>,
  list: OrderedList,
  moves: readonly { id: string; position: number }[],
  updatedAt: string,
): Promise<void> {
  if (moves.length === 0) {
    return;
  }
  const table = sql.table(list.table);
  const position = sql.ref(list.position);
  const inList = sql`${sql.ref(list.scope.column)} = ${list.scope.value} and id in (${sql.join(moves.map((move) => move.id))})`;
  await sql`update ${table} set ${position} = -1 - ${position} where ${inList}`.execute(trx);
  const cases = sql.join(
    moves.map((move) => sql`when id = ${move.id} then ${sql.lit(move.position)}`),
    sql` `,
  );
  await sql`update ${table} set ${position} = case ${cases} else ${position} end, updated_at = ${updatedAt} where ${inList}`.execute(
    trx,
  );
}
