import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { ArticleTagsField } from '../tags/ArticleTagsField';
import { type Article, articleQuery, publishArticle, unpublishArticle } from './articles-api';
import { ConflictPanel } from './ConflictPanel';
import { PreviewDialog } from './PreviewDialog';
import { RichTextEditor } from './RichTextEditor';
import { type SaveState, useArticleDraft } from './use-article-draft';

const SAVE_STATE_TEXT: Record<SaveState, string> = {
  saved: 'All changes saved',
  unsaved: 'Unsaved changes',
  saving: 'Saving…',
  failed: 'Not saved',
  conflict: 'Not saved: someone else changed this article',
};

/** One article's editor: its draft saved as it is written, its tags, a preview, publishing. */
export function ArticleEditorPage() {
  const { helpCenterId, articleId } = useParams({ from: '/signed-in/knowledge/$helpCenterId/articles/$articleId' });
  const article = useQuery(articleQuery(articleId));
  return (
    <div className="h-full overflow-y-auto">
      <div className="px-4 pt-3">
        <Link
          to="/knowledge/$helpCenterId/articles"
          params={{ helpCenterId }}
          className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline dark:text-blue-400"
        >
          <ArrowLeft size={14} aria-hidden />
          All articles
        </Link>
      </div>
      <ErrorNotice error={article.error} className="m-4" />
      {article.isPending ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading the article…</p> : null}
      {article.data ? <ArticleEditor key={article.data._id} article={article.data} /> : null}
    </div>
  );
}

function ArticleEditor({ article }: { article: Article }) {
  const id = useId();
  const draft = useArticleDraft(article);
  const [previewing, setPreviewing] = useState(false);
  const current = useQuery(articleQuery(article._id)).data ?? article;
  const publication = useMutation({
    mutationFn: async (action: 'publish' | 'unpublish') => {
      if (!(await draft.flush())) {
        throw new Error('Save the article before publishing it: see the problem above.');
      }
      return action === 'publish' ? publishArticle(article._id) : unpublishArticle(article._id);
    },
    onSuccess: (updated) => draft.accept(updated),
  });
  const published = current.state === 'published';
  const status = published ? (current.hasUnpublishedChanges ? 'Published, with unpublished changes' : 'Published') : 'Draft';
  return (
    <>
      <PageHeader
        title={draft.draft.title || 'Untitled article'}
        description={status}
        actions={
          <>
            <Button onClick={() => void draft.flush().then(() => setPreviewing(true))}>Preview</Button>
            {published ? (
              <Button disabled={publication.isPending} onClick={() => publication.mutate('unpublish')}>
                Unpublish
              </Button>
            ) : null}
            <Button
              variant="primary"
              disabled={publication.isPending || (published && !current.hasUnpublishedChanges && draft.state === 'saved')}
              onClick={() => publication.mutate('publish')}
            >
              Publish
            </Button>
          </>
        }
      />
      <div className="mx-auto flex max-w-4xl flex-col gap-4 p-4">
        <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {SAVE_STATE_TEXT[draft.state]}
        </p>
        <ErrorNotice error={publication.error} />
        {draft.problems.rest ? <ErrorNotice error={draft.problems.rest} /> : null}
        {draft.conflict ? (
          <ConflictPanel
            conflict={draft.conflict}
            mine={draft.draft}
            onTakeTheirs={draft.takeTheirs}
            onOverwrite={() => void draft.overwrite()}
          />
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-title`} className="text-sm font-medium">
            Title
          </label>
          <input
            id={`${id}-title`}
            value={draft.draft.title}
            aria-invalid={Boolean(draft.problems.title)}
            aria-describedby={draft.problems.title ? `${id}-title-error` : undefined}
            onChange={(event) => draft.change({ title: event.target.value })}
            className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-base aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900"
          />
          {draft.problems.title ? (
            <p id={`${id}-title-error`} className="text-xs text-red-700 dark:text-red-400">
              {draft.problems.title}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col gap-1">
          <span id={`${id}-body`} className="text-sm font-medium">
            Body
          </span>
          <RichTextEditor
            key={draft.generation}
            content={draft.draft.html}
            labelledBy={`${id}-body`}
            describedBy={draft.problems.contentHtml ? `${id}-body-error` : undefined}
            invalid={Boolean(draft.problems.contentHtml)}
            onChange={(html) => draft.change({ html })}
          />
          {draft.problems.contentHtml ? (
            <p id={`${id}-body-error`} className="text-xs text-red-700 dark:text-red-400">
              {draft.problems.contentHtml}
            </p>
          ) : null}
        </div>
        <ArticleTagsField value={draft.draft.tags} onChange={(tags) => draft.change({ tags })} error={draft.problems.tags} />
      </div>
      <PreviewDialog open={previewing} onOpenChange={setPreviewing} title={current.title} html={current.contentHtml} />
    </>
  );
}
