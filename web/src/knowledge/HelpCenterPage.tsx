import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft, FileText } from 'lucide-react';
import { sessionQuery } from '../auth/session';
import { ErrorNotice } from '../ui/ErrorNotice';
import { PageHeader } from '../ui/PageHeader';
import { CollectionsPanel } from './CollectionsPanel';
import { HelpCenterSettingsForm } from './HelpCenterSettingsForm';
import { helpCenterQuery } from './knowledge-api';

/** One help center: its collections tree, the way to its articles, and its settings. */
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
            <ArticlesLink helpCenterId={helpCenterId} />
            {isAdmin ? <HelpCenterSettingsForm helpCenter={helpCenter.data} /> : null}
          </>
        ) : null}
      </div>
    </div>
  );
}

/** The way to the help center's articles: their list, their editor and the tags. */
function ArticlesLink({ helpCenterId }: { helpCenterId: string }) {
  return (
    <section aria-labelledby="articles-heading" className="flex flex-col gap-2">
      <h2 id="articles-heading" className="text-base font-semibold">
        Articles
      </h2>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <FileText size={20} aria-hidden className="shrink-0 text-zinc-400" />
        <Link
          to="/knowledge/$helpCenterId/articles"
          params={{ helpCenterId }}
          className="font-medium text-blue-700 hover:underline dark:text-blue-400"
        >
          All articles and tags
        </Link>
        <Link
          to="/knowledge/$helpCenterId/articles/new"
          params={{ helpCenterId }}
          className="font-medium text-blue-700 hover:underline dark:text-blue-400"
        >
          New article
        </Link>
      </div>
    </section>
  );
}
