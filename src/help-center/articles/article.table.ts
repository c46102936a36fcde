export interface ArticleTable {
  id: string;
  organization_id: string;
  /** Increasing per organization; the slug starts with it. */
  uid: number;
  title: string;
  description: string | null;
  slug: string;
  state: 'draft' | 'published';
  /** The draft: sanitised HTML and its markdown form. */
  content_html: string;
  content_markdown: string;
  /** JSON `{title, description, image}`. */
  meta: string;
  /** How many times it was published; the published version's number. */
  version_count: number;
  /** The published version, apart from the draft; null while unpublished. */
  published_title: string | null;
  published_description: string | null;
  published_html: string | null;
  published_by: string | null;
  published_at: string | null;
  created_by: string;
  last_edited_by: string;
  /** 1, then one more on every change of the draft: what a save names to refuse overwriting another's. */
  revision: number;
  last_edited_at: string;
  created_at: string;
  updated_at: string;
  /** Soft delete. */
  deleted_at: string | null;
}

export interface ArticleCollectionTable {
  article_id: string;
  collection_id: string;
  organization_id: string;
  added_at: string;
}

export interface ArticleTagTable {
  article_id: string;
  tag_id: string;
  organization_id: string;
}

/** The full-text index of published articles (FTS5 on SQLite, tsvector on PostgreSQL). */
export interface ArticleSearchTable {
  document_id: string;
  organization_id: string;
  title: string;
  body: string;
}
