import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { SlackRequestTable } from './slack-channel.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export type SlackDecisionRow = Selectable<SlackRequestTable> & { channel_name: string | null };

export interface SlackDecisionFilters {
  channelId?: string;
  isRequest?: boolean;
  mark?: 'right' | 'wrong' | 'unmarked';
}

/** The organization's decisions, each with its channel's name as last saved. */
function decisionsOf(db: Db, organizationId: string) {
  return db
    .selectFrom('slack_requests as decision')
    .leftJoin('slack_channels as channel', (join) =>
      join
        .onRef('channel.organization_id', '=', 'decision.organization_id')
        .onRef('channel.channel_id', '=', 'decision.channel_id'),
    )
    .selectAll('decision')
    .select('channel.name as channel_name')
    .where('decision.organization_id', '=', organizationId);
}

/** The decisions of the organization with their channel's name, newest first (then by id), `limit + 1` rows from `after`. */
export function listSlackDecisionRows(
  db: Db,
  organizationId: string,
  filters: SlackDecisionFilters,
  page: { after?: CursorKey[]; limit: number },
): Promise<SlackDecisionRow[]> {
  let query = decisionsOf(db, organizationId);
  if (filters.channelId !== undefined) {
    query = query.where('decision.channel_id', '=', filters.channelId);
  }
  if (filters.isRequest !== undefined) {
    query = query.where('decision.is_request', '=', filters.isRequest ? 1 : 0);
  }
  if (filters.mark === 'unmarked') {
    query = query.where('decision.mark', 'is', null);
  } else if (filters.mark !== undefined) {
    query = query.where('decision.mark', '=', filters.mark);
  }
  return inKeysetOrder(query, ['decision.created_at', 'decision.id'], page.after, 'desc')
    .limit(page.limit + 1)
    .execute();
}

export function findSlackDecisionRow(db: Db, organizationId: string, id: string): Promise<SlackDecisionRow | undefined> {
  return decisionsOf(db, organizationId).where('decision.id', '=', id).executeTakeFirst();
}

/** An admin's verdict on a decision (null clears it, and who and when with it); answers whether the decision exists. */
export async function markSlackDecision(
  db: Db,
  organizationId: string,
  id: string,
  mark: { mark: 'right' | 'wrong' | null; markedBy: string | null; markedAt: string | null; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('slack_requests')
    .set({ mark: mark.mark, marked_by: mark.markedBy, marked_at: mark.markedAt, updated_at: mark.now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface DetectionCounts {
  channel_id: string;
  channel_name: string | null;
  mode: string;
  marked: number;
  unmarked: number;
  true_positives: number;
  false_positives: number;
  true_negatives: number;
  false_negatives: number;
}

/** Counts one kind of decision: `1` where `condition` holds, summed per group (0, never null, for none). */
const countWhere = (condition: ReturnType<typeof sql>) => sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;

/**
 * The marks of the organization's decisions per channel and mode, in one grouped statement: a
 * request marked right is a true positive, wrong a false one; chatter marked right a true
 * negative, wrong a missed request (a false negative).
 */
export async function countDetectionMarks(
  db: Db,
  organizationId: string,
  filters: { channelId?: string; from?: string; to?: string },
): Promise<DetectionCounts[]> {
  let query = db
    .selectFrom('slack_requests as decision')
    .leftJoin('slack_channels as channel', (join) =>
      join
        .onRef('channel.organization_id', '=', 'decision.organization_id')
        .onRef('channel.channel_id', '=', 'decision.channel_id'),
    )
    .where('decision.organization_id', '=', organizationId);
  if (filters.channelId !== undefined) {
    query = query.where('decision.channel_id', '=', filters.channelId);
  }
  if (filters.from !== undefined) {
    query = query.where('decision.created_at', '>=', filters.from);
  }
  if (filters.to !== undefined) {
    query = query.where('decision.created_at', '<', filters.to);
  }
  const rows = await query
    .select([
      'decision.channel_id',
      'decision.mode',
      sql<string | null>`max(${sql.ref('channel.name')})`.as('channel_name'),
      countWhere(sql`decision.mark is not null`).as('marked'),
      countWhere(sql`decision.mark is null`).as('unmarked'),
      countWhere(sql`decision.is_request = 1 and decision.mark = 'right'`).as('true_positives'),
      countWhere(sql`decision.is_request = 1 and decision.mark = 'wrong'`).as('false_positives'),
      countWhere(sql`decision.is_request = 0 and decision.mark = 'right'`).as('true_negatives'),
      countWhere(sql`decision.is_request = 0 and decision.mark = 'wrong'`).as('false_negatives'),
    ])
    .groupBy(['decision.channel_id', 'decision.mode'])
    .orderBy('decision.channel_id')
    .orderBy('decision.mode')
    .execute();
  return rows.map((row) => ({
    ...row,
    marked: Number(row.marked),
    unmarked: Number(row.unmarked),
    true_positives: Number(row.true_positives),
    false_positives: Number(row.false_positives),
    true_negatives: Number(row.true_negatives),
    false_negatives: Number(row.false_negatives),
  }));
}
