import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { ArrowLeft, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { Select } from '../../ui/Select';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { collectionsQuery, helpCenterQuery } from '../knowledge-api';
import { TagsPanel } from '../tags/TagsPanel';
import { tagsQuery } from '../tags/tags-api';
import type { ArticleListSearch } from './article-search';
import { type Article, articlesQuery } from './articles-api';

const ROUTE = '/signed-in/knowledge/$helpCenterId/articles';

/** A help center's articles, drafts included: found by words, status, tag and collection; and its tags. */
export function ArticlesPage() {
  const { helpCenterId } = useParams({ from: ROUTE });
  const search = useSearch({ from: ROUTE });
  const navigate = useNavigate({ from: '/knowledge/$helpCenterId/articles' });
  const helpCenter = useQuery(helpCenterQuery(helpCenterId));
  const collections = useQuery(collectionsQuery(helpCenterId));
  const tags = useQuery(tagsQuery);
  const [words, setWords] = useState(search.q ?? '');
  const settledWords = useDebouncedValue(words, 300);
  const filter = (next: Partial<ArticleListSearch>) =>
    void navigate({ search: (previous) => ({ ...previous, ...next }), replace: true });
  // biome-ignore lint/correctness/useExhaustiveDependencies: only typing (settled) changes the address
  useEffect(() => {
    if ((settledWords.trim() || undefined) !== search.q) {
      filter({ q: settledWords.trim() || undefined });
    }
  }, [settledWords]);
  const articles = useQuery(
    articlesQuery({
      ...(search.collectionId ? { collectionId: search.collectionId } : { helpCenterId }),
      ...(search.q ? { q: search.q } : {}),
      ...(search.state ? { state: search.state } : {}),
      ...(search.tag ? { tag: search.tag } : {}),
      limit: 100,
    }),
  );
  const tagNames = new Map((tags.data ?? []).map((tag) => [tag._id, tag.name]));
  return (
    <div className="h-full overflow-y-auto">
      <div className="px-4 pt-3">
        <Link
          to="/knowledge/$helpCenterId"
          params={{ helpCenterId }}
          className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline dark:text-blue-400"
        >
          <ArrowLeft size={14} aria-hidden />
          {helpCenter.data?.name ?? 'Help center'}
        </Link>
      </div>
      <PageHeader
        title="Articles"
        description="Drafts and published articles of this help center."
        actions={
          <Link
            to="/knowledge/$helpCenterId/articles/new"
            params={{ helpCenterId }}
            search={search.collectionId ? { collectionId: search.collectionId } : {}}
            className="inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700"
          >
            <Plus size={16} aria-hidden />
            New article
          </Link>
        }
      />
      <div className="mx-auto flex max-w-4xl flex-col gap-4 p-4">
        <search className="flex flex-wrap items-center gap-3" aria-label="Filter articles">
          <label className="flex items-center gap-1.5 text-xs font-medium text-zinc-600 dark:text-zinc-400">
            Search
            <input
              type="search"
              value={words}
              onChange={(event) => setWords(event.target.value)}
              className="w-52 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
            />
          </label>
          <Select
            label="Status"
            value={search.state ?? ''}
            onChange={(event) => filter({ state: (event.target.value || undefined) as ArticleListSearch['state'] })}
            options={[
              { value: '', label: 'Any' },
              { value: 'draft', label: 'Draft' },
              { value: 'published', label: 'Published' },
            ]}
          />
          <Select
            label="Tag"
            value={search.tag ?? ''}
            onChange={(event) => filter({ tag: event.target.value || undefined })}
            options={[{ value: '', label: 'Any' }, ...(tags.data ?? []).map((tag) => ({ value: tag._id, label: tag.name }))]}
          />
          <Select
            label="Collection"
            value={search.collectionId ?? ''}
            onChange={(event) => filter({ collectionId: event.target.value || undefined })}
            options={[
              { value: '', label: 'All' },
              ...(collections.data ?? []).map((collection) => ({ value: collection._id, label: collection.name })),
            ]}
          />
        </search>
        <ErrorNotice error={articles.error} />
        {articles.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading articles…</p> : null}
        {articles.data?.data.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No articles match. Start one with “New article”.</p>
        ) : null}
        {articles.data && articles.data.data.length > 0 ? (
          <ul
            aria-label="Articles"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {articles.data.data.map((article) => (
              <ArticleRow key={article._id} article={article} helpCenterId={helpCenterId} tagNames={tagNames} />
            ))}
          </ul>
        ) : null}
        <TagsPanel />
      </div>
    </div>
  );
}

function ArticleRow({
  article,
  helpCenterId,
  tagNames,
}: {
  article: Article;
  helpCenterId: string;
  tagNames: Map<string, string>;
}) {
  const published = article.state === 'published';
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
      <Link
        to="/knowledge/$helpCenterId/articles/$articleId"
        params={{ helpCenterId, articleId: article._id }}
        className="min-w-0 flex-1 truncate font-medium text-blue-700 hover:underline dark:text-blue-400"
      >
        {article.title}
      </Link>
      {article.tags.map((tagId) => (
        <span key={tagId} className="rounded-full border border-zinc-300 px-2 text-xs dark:border-zinc-700">
          {tagNames.get(tagId) ?? 'Tag'}
        </span>
      ))}
      <span
        className={`rounded px-1.5 py-0.5 text-xs ${published ? 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200' : 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200'}`}
      >
        {published ? (article.hasUnpublishedChanges ? 'Published, edited' : 'Published') : 'Draft'}
      </span>
    </li>
  );
}
