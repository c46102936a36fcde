/** The article list's filters, kept in the address so a filtered list can be linked to. */
export interface ArticleListSearch {
  q?: string;
  state?: 'draft' | 'published';
  tag?: string;
  collectionId?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

export function parseArticleListSearch(search: Record<string, unknown>): ArticleListSearch {
  const state = search.state === 'draft' || search.state === 'published' ? search.state : undefined;
  return {
    ...(text(search.q) ? { q: text(search.q) } : {}),
    ...(state ? { state } : {}),
    ...(text(search.tag) ? { tag: text(search.tag) } : {}),
    ...(text(search.collectionId) ? { collectionId: text(search.collectionId) } : {}),
  };
}

/** A new article's prefilled title and collection (other pages link here with them). */
export interface NewArticleSearch {
  title?: string;
  collectionId?: string;
}

export function parseNewArticleSearch(search: Record<string, unknown>): NewArticleSearch {
  return {
    ...(text(search.title) ? { title: text(search.title) } : {}),
    ...(text(search.collectionId) ? { collectionId: text(search.collectionId) } : {}),
  };
}
