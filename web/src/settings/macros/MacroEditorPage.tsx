import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { MacroForm } from './MacroForm';
import { macroQuery } from './macro-queries';

/** `/settings/macros/new` makes a macro; `/settings/macros/{id}` edits one. */
export function MacroEditorPage() {
  const { macroId } = useParams({ from: '/signed-in/settings/macros/$macroId' });
  const isNew = macroId === 'new';
  const macro = useQuery({ ...macroQuery(macroId), enabled: !isNew });
  const back = (
    <Link
      to="/settings/macros"
      className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline dark:text-blue-400"
    >
      <ArrowLeft size={14} aria-hidden /> All macros
    </Link>
  );
  if (isNew) {
    return (
      <div>
        <PageHeader title="New macro" actions={back} />
        <MacroForm key="new" />
      </div>
    );
  }
  return (
    <div>
      <PageHeader title={macro.data ? `Macro: ${macro.data.name}` : 'Macro'} actions={back} />
      {macro.isPending ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading the macro…</p> : null}
      <ErrorNotice error={macro.error} className="m-4" />
      {macro.data ? <MacroForm key={macro.data.id} macro={macro.data} /> : null}
    </div>
  );
}
