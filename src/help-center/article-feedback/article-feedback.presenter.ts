import { readBoolean } from '../../db/dialect.js';
import type { ArticleFeedbackRow } from './article-feedback.repository.js';

/** A reader's vote as writers see it: never who gave it (the voter key stays in the database). */
export function toArticleFeedback(row: ArticleFeedbackRow) {
  return {
    _id: row.id,
    helpful: readBoolean(row.helpful),
    comment: row.comment,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
