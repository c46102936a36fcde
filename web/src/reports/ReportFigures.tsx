import { useId } from 'react';
import type { Figure } from './report-catalog';

/** The report's totals as labelled figures (a group named by its label), each the API's number as it is (a dash where none was measured). */
export function ReportFigures({ figures }: { figures: readonly Figure[] }) {
  if (figures.length === 0) {
    return null;
  }
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {figures.map((figure) => (
        <FigureItem key={figure.label} figure={figure} />
      ))}
    </div>
  );
}

function FigureItem({ figure }: { figure: Figure }) {
  const labelId = useId();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a figure is no form's fieldset; the group names its number by its label.
    <div role="group" aria-labelledby={labelId} className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800">
      <div id={labelId} className="text-xs text-zinc-600 dark:text-zinc-400">
        {figure.label}
      </div>
      <div className="text-2xl font-semibold tabular-nums">
        {figure.value === null ? (
          <>
            <span aria-hidden>—</span>
            <span className="sr-only">none</span>
          </>
        ) : (
          <>
            {String(figure.value)}
            {figure.unit ? (
              <span className="ml-1 text-sm font-normal text-zinc-600 dark:text-zinc-400">{figure.unit}</span>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}
