import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { findLiveUser } from '../../platform/users/user.lookup.js';
import { findArticleById } from './article.repository.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The 409 of a save made on a revision another save has replaced: it names who made the newer
 * one and when, so the editor can say so and offer to compare. A deleted article is a 404.
 */
export async function staleRevisionError(db: Db, organizationId: string, id: string, notFound: string): Promise<AppError> {
  const current = await findArticleById(db, organizationId, id);
  if (!current) {
    return AppError.notFound(notFound);
  }
  const editor = await findLiveUser(db, organizationId, current.last_edited_by);
  const who = editor?.name || 'Someone else';
  return AppError.conflict(
    `${who} changed this article at ${current.last_edited_at} (revision ${current.revision}); compare their version with yours before saving again`,
  );
}
