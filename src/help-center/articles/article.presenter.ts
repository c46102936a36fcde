import { readMeta } from '../help-centers/help-center.meta.js';
import type { ArticleRow } from './article.repository.js';

export interface Placement {
  collections: string[];
  helpCenters: string[];
  tags: string[];
}

/** Readers' answers to "Was this helpful?" on the public site. */
export interface FeedbackCounts {
  helpfulCount: number;
  notHelpfulCount: number;
}

export function toArticle(row: ArticleRow, placement: Placement | undefined, feedback: FeedbackCounts | undefined) {
  const published =
    row.published_html !== null && row.published_title !== null && row.published_by !== null && row.published_at !== null
      ? {
          title: row.published_title,
          description: row.published_description,
          html: row.published_html,
          version: row.version_count,
          publishedBy: row.published_by,
          publishedAt: row.published_at,
        }
      : null;
  return {
    _id: row.id,
    orgId: row.organization_id,
    uid: row.uid,
    title: row.title,
    description: row.description,
    slug: row.slug,
    state: row.state,
    contentHtml: row.content_html,
    contentMarkdown: row.content_markdown,
    tags: placement?.tags ?? [],
    collections: placement?.collections ?? [],
    helpCenters: placement?.helpCenters ?? [],
    meta: readMeta(row.meta),
    publishedVersion: published,
    hasUnpublishedChanges: published !== null && hasDraftChanges(row),
    helpfulCount: feedback?.helpfulCount ?? 0,
    notHelpfulCount: feedback?.notHelpfulCount ?? 0,
    isDeleted: row.deleted_at !== null,
    deletedAt: row.deleted_at,
    createdBy: row.created_by,
    lastEditedBy: row.last_edited_by,
    lastEditedAt: row.last_edited_at,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function hasDraftChanges(row: ArticleRow): boolean {
  return (
    row.title !== row.published_title || row.description !== row.published_description || row.content_html !== row.published_html
  );
}
