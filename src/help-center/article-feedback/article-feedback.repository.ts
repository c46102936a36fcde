import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forShare } from '../../db/dialect.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { ArticleFeedbackTable } from './article-feedback.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const FEEDBACK_COLUMNS = ['id', 'helpful', 'comment', 'created_at', 'updated_at'] as const;

export type ArticleFeedbackRow = Pick<ArticleFeedbackTable, (typeof FEEDBACK_COLUMNS)[number]>;

/**
 * The organization's live, published article `articleId`, held in share mode until the transaction
 * ends: it stays published while the vote is written, and votes do not wait for each other.
 */
export async function lockPublishedArticle(db: Db, organizationId: string, articleId: string) {
  return forShare(
    db,
    db
      .selectFrom('help_center_articles')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', articleId)
      .where('state', '=', 'published')
      .where('deleted_at', 'is', null),
  ).executeTakeFirst();
}

/** Whether the organization has the live (not deleted) article `articleId`, in any state. */
export async function hasLiveArticle(db: Db, organizationId: string, articleId: string): Promise<boolean> {
  const row = await db
    .selectFrom('help_center_articles')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', articleId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * One statement: the voter's first answer about the article is inserted, a later one replaces its
 * answer and comment (the unique `(article_id, voter_key)` decides, so concurrent votes of one
 * browser in several processes leave one row). Answers the row as it now is.
 */
export async function upsertArticleFeedback(db: Db, row: ArticleFeedbackTable): Promise<ArticleFeedbackRow> {
  return db
    .insertInto('article_feedback')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['article_id', 'voter_key']).doUpdateSet((eb) => ({
        helpful: eb.ref('excluded.helpful'),
        comment: eb.ref('excluded.comment'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returning(FEEDBACK_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Votes per article and answer, for a page of articles: one grouped statement. */
export async function countArticleFeedback(db: Db, articleIds: readonly string[]) {
  if (articleIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('article_feedback')
    .select(['article_id', 'helpful', (eb) => eb.fn.countAll<number | string | bigint>().as('votes')])
    .where('article_id', 'in', [...new Set(articleIds)])
    .groupBy(['article_id', 'helpful'])
    .execute();
}

/** A page of the article's feedback, most recently given first, after the keys `[updated_at, id]`. */
export async function listArticleFeedback(
  db: Db,
  organizationId: string,
  articleId: string,
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<ArticleFeedbackRow[]> {
  const query = db
    .selectFrom('article_feedback')
    .select(FEEDBACK_COLUMNS)
    .where('article_id', '=', articleId)
    .where('organization_id', '=', organizationId);
  return inKeysetOrder(query, ['updated_at', 'id'], page.after, 'desc').limit(page.limit).execute();
}
