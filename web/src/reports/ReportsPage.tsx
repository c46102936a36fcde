import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';
import { PageHeader } from '../ui/PageHeader';
import { Tabs } from '../ui/Tabs';
import { AgentTotalsTable } from './AgentTotalsTable';
import { isEmptyChart } from './chart-data';
import { ReportChart } from './ReportChart';
import { ReportControls } from './ReportControls';
import { ReportFigures } from './ReportFigures';
import { REPORTS, type ReportEntry, type ReportQuery, reportNamed } from './report-catalog';
import { dayOf, startOfDay } from './report-range';
import { type ReportSearch, rangeOf } from './report-search';
import { saveCsv } from './save-csv';

/** `/app/reports`: a report's chart and totals over a range, for a team or all, and its CSV. */
export function ReportsPage() {
  const search = useSearch({ from: '/signed-in/reports' });
  const navigate = useNavigate();
  const report = reportNamed(search.report);
  const today = dayOf(new Date());
  const query = useMemo((): ReportQuery => {
    const range = rangeOf(search, startOfDay(today));
    return {
      ...range,
      ...(search.team ? { teamId: search.team } : {}),
      ...(search.interval ? { interval: search.interval } : {}),
    };
  }, [search, today]);
  const change = (next: ReportSearch) => void navigate({ to: '/reports', search: next, replace: true });
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader
        title="Reports"
        description="How the helpdesk is doing, from the same numbers as the reports API"
        actions={<DownloadCsv report={report} query={query} />}
      />
      <div className="flex flex-col gap-4 p-4">
        <ReportControls search={search} range={{ from: query.from, to: query.to }} onChange={change} />
        <Tabs
          label="Report"
          value={report.name}
          onValueChange={(name) => change({ ...search, report: name === REPORTS[0]?.name ? undefined : name })}
          items={REPORTS.map((entry) => ({ value: entry.name, label: entry.title }))}
        >
          <ReportBody report={report} query={query} />
        </Tabs>
      </div>
    </div>
  );
}

function ReportBody({ report, query }: { report: ReportEntry; query: ReportQuery }) {
  const answer = useQuery({ queryKey: ['reports', report.name, query], queryFn: () => report.read(query) });
  const rows = useMemo(() => (answer.data ? report.rows(answer.data) : []), [answer.data, report]);
  if (answer.isPending) {
    return (
      <p role="status" className="py-8 text-center text-sm text-zinc-600 dark:text-zinc-400">
        Loading the report…
      </p>
    );
  }
  if (answer.isError) {
    return <ErrorNotice error={answer.error} className="mt-4" />;
  }
  const perAgent = report.perAgent?.(answer.data);
  const title = `${report.title}, ${query.from} to ${query.to}, per ${query.interval ?? 'day'}`;
  return (
    <div className="flex flex-col gap-4 pt-4">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{report.description}.</p>
      <ReportFigures figures={report.figures(answer.data)} />
      {perAgent ? <AgentTotalsTable agents={perAgent} /> : null}
      {isEmptyChart(rows, report.series) ? (
        <p className="rounded-md border border-dashed border-zinc-300 py-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          Nothing to chart in this range.
        </p>
      ) : (
        <ReportChart title={title} rows={rows} series={report.series} />
      )}
    </div>
  );
}

/** The report as the API writes it in CSV, saved as `report-<name>-<from>-<to>.csv`. */
function DownloadCsv({ report, query }: { report: ReportEntry; query: ReportQuery }) {
  const download = useMutation({
    mutationFn: async () => {
      saveCsv(`report-${report.name}-${query.from}-${query.to}.csv`, await report.readCsv(query));
    },
  });
  return (
    <div className="flex flex-col items-end gap-1">
      <Button onClick={() => download.mutate()} disabled={download.isPending}>
        <Download size={14} aria-hidden />
        {download.isPending ? 'Downloading…' : 'Download CSV'}
      </Button>
      <ErrorNotice error={download.error} />
    </div>
  );
}
