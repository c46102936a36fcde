import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { storableText } from '../../lib/storable-text.js';
import { DEFAULT_LIST_LIMIT } from '../help-center.pagination.js';
import { toArticleFeedback } from './article-feedback.presenter.js';
import {
  countArticleFeedback as countVotes,
  hasLiveArticle,
  listArticleFeedback,
  lockPublishedArticle,
  upsertArticleFeedback,
} from './article-feedback.repository.js';
import type { ListArticleFeedbackQuerySchema } from './article-feedback.schemas.js';

export interface ArticleFeedbackDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export interface ArticleFeedbackInput {
  organizationId: string;
  articleId: string;
  /** What tells one browser from another (its id, from a cookie); only its SHA-256 is stored. */
  voterKey: string;
  helpful: boolean;
  /** Free text from the reader; NUL characters are dropped, blank is none, at most 2,000 characters. */
  comment?: string | null;
}

export interface ArticleFeedbackCounts {
  helpfulCount: number;
  notHelpfulCount: number;
}

export const MAX_FEEDBACK_COMMENT = 2000;
const ARTICLE_NOT_FOUND = 'Article not found';

function storedComment(comment: string | null | undefined): string | null {
  const text = storableText(comment ?? '').trim();
  if ([...text].length > MAX_FEEDBACK_COMMENT) {
    throw AppError.invalid(`comment must be at most ${MAX_FEEDBACK_COMMENT} characters long`, {
      location: 'body',
      path: ['comment'],
      rule: 'maxLength',
    });
  }
  return text === '' ? null : text;
}

/**
 * Records a reader's vote on a published, live article of the organization (else a 404): one per
 * browser per article, a later vote replacing the earlier answer and comment. The voter key is
 * stored hashed. Answers the vote as it now stands.
 */
export async function recordArticleFeedback(deps: ArticleFeedbackDeps, input: ArticleFeedbackInput) {
  if (input.voterKey === '') {
    throw new Error('recordArticleFeedback needs a voter key');
  }
  const comment = storedComment(input.comment);
  const at = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockPublishedArticle(trx, input.organizationId, input.articleId))) {
      throw AppError.notFound(ARTICLE_NOT_FOUND);
    }
    return upsertArticleFeedback(trx, {
      id: deps.ids.objectId(),
      organization_id: input.organizationId,
      article_id: input.articleId,
      voter_key: createHash('sha256').update(input.voterKey).digest('hex'),
      helpful: input.helpful,
      comment,
      created_at: at,
      updated_at: at,
    });
  });
  return toArticleFeedback(row);
}

/** Each article's votes, zero for an article without any: one grouped query for a page of articles. */
export async function countArticleFeedback(
  db: Kysely<DB> | Transaction<DB>,
  articleIds: readonly string[],
): Promise<Map<string, ArticleFeedbackCounts>> {
  const counts = new Map(articleIds.map((id) => [id, { helpfulCount: 0, notHelpfulCount: 0 }]));
  for (const row of await countVotes(db, articleIds)) {
    const article = counts.get(row.article_id);
    if (article) {
      article[readBoolean(row.helpful) ? 'helpfulCount' : 'notHelpfulCount'] = Number(row.votes);
    }
  }
  return counts;
}

/** The article's feedback, most recently given first (a keyset page); another organization's article is a 404. */
export async function listFeedbackOfArticle(
  db: Kysely<DB>,
  principal: Principal,
  articleId: string,
  query: Static<typeof ListArticleFeedbackQuerySchema>,
) {
  if (!(await hasLiveArticle(db, principal.organizationId, articleId))) {
    throw AppError.notFound(ARTICLE_NOT_FOUND);
  }
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readTypedCursor(query.cursor, ['instant', 'text']);
  const rows = await listArticleFeedback(db, principal.organizationId, articleId, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.updated_at, row.id]);
  return { items: page.items.map(toArticleFeedback), nextCursor: page.nextCursor };
}
