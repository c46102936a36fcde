import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { teamsQuery } from '../api/ticket-options';
import { Select } from '../ui/Select';
import { type DayRange, isDay, RANGE_PRESETS } from './report-range';
import { REPORT_INTERVALS, type ReportSearch, rangeChoiceOf } from './report-search';

const RANGE_OPTIONS = [
  ...RANGE_PRESETS.map((preset) => ({ value: preset.value, label: preset.label })),
  { value: 'custom', label: 'Custom range' },
];
const INTERVAL_LABELS = { day: 'Day', week: 'Week', month: 'Month' } as const;

/** The range (a preset, or two days), the team and the bucket size; every change goes to the URL. */
export function ReportControls({
  search,
  range,
  onChange,
}: {
  search: ReportSearch;
  range: DayRange;
  onChange: (next: ReportSearch) => void;
}) {
  const teams = useQuery(teamsQuery).data ?? [];
  const choice = rangeChoiceOf(search);
  const pickRange = (value: string) => {
    // Custom starts from the days shown, so switching to it changes nothing until a day is edited.
    const next: ReportSearch = { ...search, from: undefined, to: undefined };
    onChange(value === 'custom' ? { ...next, range: 'custom', ...range } : { ...next, range: value as ReportSearch['range'] });
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Select label="Range" value={choice} options={RANGE_OPTIONS} onChange={(event) => pickRange(event.target.value)} />
      {choice === 'custom' ? (
        <>
          <DayInput
            label="From"
            value={range.from}
            onChange={(from) => onChange({ ...search, ...range, range: 'custom', from })}
          />
          <DayInput label="To" value={range.to} onChange={(to) => onChange({ ...search, ...range, range: 'custom', to })} />
        </>
      ) : null}
      <Select
        label="Team"
        value={search.team ?? ''}
        options={[{ value: '', label: 'All teams' }, ...teams.map((team) => ({ value: team.id, label: team.name }))]}
        onChange={(event) => onChange({ ...search, team: event.target.value || undefined })}
      />
      <Select
        label="Interval"
        value={search.interval ?? 'day'}
        options={REPORT_INTERVALS.map((interval) => ({ value: interval, label: INTERVAL_LABELS[interval] }))}
        onChange={(event) =>
          onChange({
            ...search,
            interval: event.target.value === 'day' ? undefined : (event.target.value as ReportSearch['interval']),
          })
        }
      />
    </div>
  );
}

/** A day picker that hands on only complete days (a half-typed date is left in the field). */
function DayInput({ label, value, onChange }: { label: string; value: string; onChange: (day: string) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
        {label}
      </label>
      <input
        id={id}
        type="date"
        value={value}
        required
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        onChange={(event) => {
          if (isDay(event.target.value)) {
            onChange(event.target.value);
          }
        }}
      />
    </div>
  );
}
