import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft, FileText } from 'lucide-react';
import { sessionQuery } from '../auth/session';
import { ErrorNotice } from '../ui/ErrorNotice';
import { PageHeader } from '../ui/PageHeader';
import { CollectionsPanel } from './CollectionsPanel';
import { HelpCenterSettingsForm } from './HelpCenterSettingsForm';
import { helpCenterQuery } from './knowledge-api';

/** One help center: its collections tree, its articles (to come) and its settings. */
export function HelpCenterPage() {
  const { helpCenterId } = useParams({ from: '/signed-in/knowledge/$helpCenterId' });
  const helpCenter = useQuery(helpCenterQuery(helpCenterId));
  const isAdmin = useQuery(sessionQuery).data?.user.userType === 'ORG_ADMIN';
  return (
    <div className="h-full overflow-y-auto">
      <div className="px-4 pt-3">
        <Link to="/knowledge" className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline dark:text-blue-400">
          <ArrowLeft size={14} aria-hidden />
          All help centers
        </Link>
      </div>
      <PageHeader
        title={helpCenter.data?.name ?? 'Help center'}
        description={helpCenter.data ? `Published at /hc/${helpCenter.data.slug}/` : undefined}
        actions={
          helpCenter.data ? (
            <a
              href={`/hc/${helpCenter.data.slug}/`}
              target="_blank"
              rel="noreferrer"
              className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              Open the public site
            </a>
          ) : null
        }
      />
      <div className="mx-auto flex max-w-4xl flex-col gap-8 p-4">
        <ErrorNotice error={helpCenter.error} />
        {helpCenter.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading the help center…</p> : null}
        {helpCenter.data ? (
          <>
            <CollectionsPanel helpCenterId={helpCenterId} canEdit={isAdmin} />
            <ArticlesPlaceholder />
            {isAdmin ? <HelpCenterSettingsForm helpCenter={helpCenter.data} /> : null}
          </>
        ) : null}
      </div>
    </div>
  );
}

/** Where the article list and editor go (issue 36, part 2): they need a rich-text framework not yet installed. */
function ArticlesPlaceholder() {
  return (
    <section aria-labelledby="articles-heading" className="flex flex-col gap-2">
      <h2 id="articles-heading" className="text-base font-semibold">
        Articles
      </h2>
      <div className="flex items-start gap-3 rounded-md border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        <FileText size={20} aria-hidden className="shrink-0 text-zinc-400" />
        <p>
          Writing articles here is coming next: the list, the editor, publishing and tags. Until then, articles are written
          through the help-center API, and they show in their collections above.
        </p>
      </div>
    </section>
  );
}
