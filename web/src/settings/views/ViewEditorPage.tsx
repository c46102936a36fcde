import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { ViewForm } from './ViewForm';
import { viewQuery } from './view-queries';

/** `/settings/views/new` saves a view; `/settings/views/{id}` edits one. */
export function ViewEditorPage() {
  const { viewId } = useParams({ from: '/signed-in/settings/views/$viewId' });
  const isNew = viewId === 'new';
  const view = useQuery({ ...viewQuery(viewId), enabled: !isNew });
  const back = (
    <Link
      to="/settings/views"
      className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline dark:text-blue-400"
    >
      <ArrowLeft size={14} aria-hidden /> All views
    </Link>
  );
  if (isNew) {
    return (
      <div>
        <PageHeader title="New view" actions={back} />
        <ViewForm key="new" />
      </div>
    );
  }
  return (
    <div>
      <PageHeader title={view.data ? `View: ${view.data.name}` : 'View'} actions={back} />
      {view.isPending ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading the view…</p> : null}
      <ErrorNotice error={view.error} className="m-4" />
      {view.data?.isBuiltIn ? (
        <p className="p-4 text-sm">Built-in views are the same for everyone and cannot be changed.</p>
      ) : view.data ? (
        <ViewForm key={view.data.id} view={view.data} />
      ) : null}
    </div>
  );
}
